// Date-times as clients and registers write them. ISO 8601 allows more forms than the RFC 3339
// profile zod checks; each is rewritten into that profile, so one check serves every form.

// An ISO 8601 date-time with its offset: extended or basic offset (`-03:00`, `-0300`) or hours
// only (`-03`), with or without seconds, `T` and `Z` in either case.
const DATA_HORA_ISO = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * `valor` in the RFC 3339 form (`2026-11-21T10:00:00-03:00`) when it is an ISO 8601 date-time
 * with an offset in one of the forms above, the same instant; anything else as it came, for the
 * schema to refuse.
 */
export function paraRfc3339(valor: string): string {
  const partes = DATA_HORA_ISO.exec(valor);
  if (partes === null) return valor;
  const [, data, horaMinuto, segundos = ':00', utc, sinal, horasFuso, minutosFuso = '00'] = partes;
  return `${data}T${horaMinuto}${segundos}${utc === undefined ? `${sinal}${horasFuso}:${minutosFuso}` : 'Z'}`;
}
