// Virtual-tour rule: only an `https:` address reaches partners (portals embed it in secure pages).

export function urlTourVirtual(valor: string | null): string | null {
  const texto = valor?.trim() ?? '';
  if (texto === '' || !URL.canParse(texto)) return null;
  const url = new URL(texto);
  // The normalised form, so the stored document does not change with cosmetic differences.
  return url.protocol === 'https:' ? url.href : null;
}
