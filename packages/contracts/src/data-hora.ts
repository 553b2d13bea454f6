// Date-times as clients and registers write them. ISO 8601 allows more forms than the RFC 3339
// profile zod checks; each is rewritten into that profile, so one check serves every form.

// An ISO 8601 date-time with its offset: extended (`2026-11-21T10:00:00`) or basic
// (`20261121T100000`) date and time, reduced to hours and minutes or hours alone, a decimal
// fraction after a dot or a comma; `Z` or an extended, basic or hours-only offset (`-03:00`,
// `-0300`, `-03`); `T` and `Z` in either case. The date and the time are each in one form, not
// necessarily the same one. Calendar dates only: ordinal (`2026-325`) and week dates
// (`2026-W47-6`), which no client is known to send, are left for the schema to refuse.
const DATA_HORA_ISO =
  /^(\d{4})(-?)(\d{2})\2(\d{2})[Tt](\d{2})(?:(:?)(\d{2})(?:\6(\d{2})(?:[.,](\d+))?)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * `valor` in the RFC 3339 form (`2026-11-21T10:00:00-03:00`) when it is an ISO 8601 date-time
 * with an offset in one of the forms above, the same instant; anything else as it came, for the
 * schema to refuse.
 */
export function paraRfc3339(valor: string): string {
  const partes = DATA_HORA_ISO.exec(valor);
  if (partes === null) return valor;
  const [, ano, , mes, dia, hora, , minuto = '00', segundo = '00', fracao, utc, sinal, horasFuso, minutosFuso = '00'] = partes;
  const fuso = utc === undefined ? `${sinal}${horasFuso}:${minutosFuso}` : 'Z';
  return `${ano}-${mes}-${dia}T${hora}:${minuto}:${segundo}${fracao === undefined ? '' : `.${fracao}`}${fuso}`;
}
