// Date-time text as the register writes it: ISO 8601 with milliseconds and the -03:00 offset.

const TRES_HORAS_MS = 3 * 3_600_000;
const DIA_MS = 86_400_000;
const ZERO = 48;

/**
 * Formats an epoch instant in Brasília time (UTC-3, no daylight saving since 2019), e.g.
 * 2026-01-01T09:00:00.000-03:00. Hand-rolled because Date#toISOString was a seventh of the
 * generator's time at a million events, and built from char codes in one flat string because a
 * concatenated one is a rope JSON.stringify has to flatten again.
 */
export function formatarDataHora(epochMs: number): string {
  const local = Math.floor(epochMs) - TRES_HORAS_MS;
  const dias = Math.floor(local / DIA_MS);
  const z = dias + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const dia = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const mes = mp < 10 ? mp + 3 : mp - 9;
  const ano = yoe + era * 400 + (mes <= 2 ? 1 : 0);
  let resto = local - dias * DIA_MS;
  const h = Math.floor(resto / 3_600_000);
  resto -= h * 3_600_000;
  const m = Math.floor(resto / 60_000);
  resto -= m * 60_000;
  const s = Math.floor(resto / 1000);
  const ms = resto - s * 1000;
  return String.fromCharCode(
    ZERO + Math.floor(ano / 1000), ZERO + (Math.floor(ano / 100) % 10), ZERO + (Math.floor(ano / 10) % 10), ZERO + (ano % 10), 45,
    ZERO + Math.floor(mes / 10), ZERO + (mes % 10), 45, ZERO + Math.floor(dia / 10), ZERO + (dia % 10), 84,
    ZERO + Math.floor(h / 10), ZERO + (h % 10), 58, ZERO + Math.floor(m / 10), ZERO + (m % 10), 58,
    ZERO + Math.floor(s / 10), ZERO + (s % 10), 46, ZERO + Math.floor(ms / 100), ZERO + (Math.floor(ms / 10) % 10), ZERO + (ms % 10),
    45, ZERO, ZERO + 3, 58, ZERO, ZERO,
  );
}

// A four-digit year (what formatarDataHora writes) and an offset: without one, Date reads the
// machine's local time, and the same seed would make other events in another time zone.
const DATA_HORA_COM_FUSO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** True when the date and the time the text names exist (Date rolls 02-30 and 24:00 over). */
function existe(texto: string): boolean {
  const [ano, mes, dia] = texto.slice(0, 10).split('-').map(Number) as [number, number, number];
  const data = new Date(Date.UTC(ano, mes - 1, dia));
  const [hora, minuto, segundo = 0] = texto.slice(11, 19).split(':').map((p) => Number.parseInt(p, 10)) as [number, number, number?];
  return data.getUTCMonth() === mes - 1 && data.getUTCDate() === dia && hora <= 23 && minuto <= 59 && segundo <= 59;
}

/** Parses an ISO date-time with offset; throws on anything else. */
export function lerDataHora(texto: string): number {
  const ms = DATA_HORA_COM_FUSO.test(texto) && existe(texto) ? Date.parse(texto) : Number.NaN;
  if (!Number.isFinite(ms)) throw new RangeError(`data-hora inválida (ISO 8601 com fuso, por exemplo 2026-01-01T09:00:00-03:00): ${JSON.stringify(texto)}`);
  return ms;
}
