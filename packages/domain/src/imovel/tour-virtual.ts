// Virtual-tour rule: only an `https:` address reaches partners (portals embed it in secure pages).

export function urlTourVirtual(valor: string | null): string | null {
  const texto = valor?.trim() ?? '';
  if (texto === '' || !URL.canParse(texto)) return null;
  const url = new URL(texto);
  // A user name or password in it is the agency's secret, never partners' to read: no link.
  if (url.username !== '' || url.password !== '') return null;
  // The normalised form, so the stored document does not change with cosmetic differences.
  return url.protocol === 'https:' ? url.href : null;
}
