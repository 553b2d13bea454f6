// Date-times as clients and registers write them. ISO 8601 allows more forms than the RFC 3339
// profile zod checks; each is rewritten into that profile, so one check serves every form.

// An ISO 8601 date-time with its offset: extended (`2026-11-21T10:00:00`) or basic
// (`20261121T100000`) date and time, reduced to hours and minutes or hours alone, a decimal
// fraction after a dot or a comma; `Z` or an extended, basic or hours-only offset (`-03:00`,
// `-0300`, `-03`); `T` and `Z` in either case. The date and the time are each in one form, not
// necessarily the same one. Calendar dates only: a partner's ordinal (`2026-325`) or week date
// (`2026-W47-6`) is written as its calendar date first (comDataDoCalendario, below).
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

// ISO 8601's other ways to write a day (what a partner may send in a query; the register sends
// calendar dates, which paraRfc3339 reads), and the day's end and a leap second (either may).

/** The instant of a wall-clock reading in UTC fields, overflowing as Date does (hour 24, second 60), any year 0000–9999. */
function emUtc(ano: number, mes: number, dia: number, hora = 0, minuto = 0, segundo = 0): Date {
  const data = new Date(0);
  data.setUTCFullYear(ano, mes - 1, dia);
  data.setUTCHours(hora, minuto, segundo, 0);
  return data;
}
const diaDoCalendario = (data: Date): string => data.toISOString().slice(0, 10);

/** An ordinal (`2026-325`, `2026325`) or week date (`2026-W47-6`, `2026W476`) before the time. */
const ORDINAL_OU_SEMANA = /^(\d{4})(-?)(?:(\d{3})|[Ww](\d{2})\2([1-7]))([Tt].*)$/;

/**
 * `valor` with an ordinal or week date written as the calendar date it names
 * (`2026-W47-6T10:00Z` → `2026-11-21T10:00Z`); anything else, a day that does not exist
 * (`2026-366`, week 53 of a year of 52) included, as it came.
 */
export function comDataDoCalendario(valor: string): string {
  const partes = ORDINAL_OU_SEMANA.exec(valor);
  if (partes === null) return valor;
  const [, anoTexto, , ordinal, semana, diaDaSemana, resto] = partes;
  const ano = Number(anoTexto);
  if (ordinal !== undefined) {
    // Day 0 is the year before's last; day 366 of a common year the next one's first.
    const dia = emUtc(ano, 1, Number(ordinal));
    return dia.getUTCFullYear() === ano ? `${diaDoCalendario(dia)}${resto}` : valor;
  }
  // Week 1 holds the year's first Thursday, so January 4th; weeks start on Monday. A week's days
  // may fall in the year before or after (2026-W01-1 is 2025-12-29), its Thursday never.
  const segundaDaSemana1 = 4 - ((emUtc(ano, 1, 4).getUTCDay() + 6) % 7);
  const segunda = segundaDaSemana1 + (Number(semana) - 1) * 7;
  if (Number(semana) < 1 || emUtc(ano, 1, segunda + 3).getUTCFullYear() !== ano) return valor;
  return `${diaDoCalendario(emUtc(ano, 1, segunda + Number(diaDaSemana) - 1))}${resto}`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * An RFC 3339 `valor` at `24:00:00` as the next day's start, and one at second 60 (a leap second)
 * as the start of the second after it, in the same offset: the same instants as far as anything
 * kept at the millisecond goes (JavaScript's clock has no leap seconds). Anything else as it came.
 */
export function semHora24NemSegundo60(valor: string): string {
  const partes = RFC3339.exec(valor);
  if (partes === null) return valor;
  const [, ano, mes, dia, hora, minuto, segundo, fracao = '', fuso] = partes.map((p): string => p ?? '');
  const fimDoDia = hora === '24' && minuto === '00' && segundo === '00' && !/[1-9]/.test(fracao);
  const segundoBissexto = segundo === '60' && Number(hora) <= 23 && Number(minuto) <= 59;
  if (!fimDoDia && !segundoBissexto) return valor;
  // The day must exist: 2026-02-30T24:00 stays, for the schema to refuse.
  if (diaDoCalendario(emUtc(Number(ano), Number(mes), Number(dia))) !== `${ano}-${mes}-${dia}`) return valor;
  const seguinte = emUtc(Number(ano), Number(mes), Number(dia), Number(hora), Number(minuto), Number(segundo));
  return `${seguinte.toISOString().slice(0, 19)}${fuso}`;
}
