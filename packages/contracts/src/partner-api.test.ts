import { describe, expect, it } from 'vitest';
import { ListarImoveisQuery, ListarRemovidosQuery, ObterImovelParams, normalizarDataHora } from './partner-api.ts';

const instante = (valor: string): number | undefined => {
  const r = ListarImoveisQuery.safeParse({ alterados_desde: valor });
  return r.success ? r.data.alterados_desde?.getTime() : undefined;
};

describe('date-time parameters', () => {
  const DEZ_HORAS_EM_BRASILIA = Date.parse('2026-11-21T13:00:00Z');

  it.each([
    '2026-11-21T10:00:00-03:00',
    '2026-11-21T10:00:00.000-03:00',
    '2026-11-21T13:00:00Z',
    '2026-11-21T13:00:00z',
    '2026-11-21t13:00:00Z',
    // ISO 8601 forms outside RFC 3339: a basic offset, an hours-only offset, no seconds.
    '2026-11-21T10:00:00-0300',
    '2026-11-21T10:00:00-03',
    '2026-11-21T10:00-03:00',
    '2026-11-21T13:00Z',
    '2026-11-21T13Z',
    '20261121T13Z',
    '2026-11-21T10-03',
    '20261121T130000Z',
    '20261121T100000-0300',
    '20261121T1000-03',
    '2026-11-21T10:00:00,000-03:00',
    // A + the client did not send as %2B arrives as a space.
    '2026-11-21T16:00:00 03:00',
    '2026-11-21T16:00:00 0300',
    '2026-11-21T16:00:00 03',
    '2026-11-21T16:00:00+03:00',
    '20261121T160000 0300',
  ])('reads %s as the instant the client meant', (valor) => {
    expect(instante(valor)).toBe(DEZ_HORAS_EM_BRASILIA);
  });

  it.each([
    // Ordinal and week dates, extended and basic: 2026-11-21 is day 325, Saturday of week 47.
    '2026-325T13:00:00Z',
    '2026325T130000Z',
    '2026-W47-6T10:00:00-03:00',
    '2026W476T1000-03',
    '2026-w47-6T16:00:00 03:00',
    // The end of the day before, and the second after a leap second, in the same offset.
    '2026-11-20T24:00:00-13:00',
    '2026-11-21T12:59:60Z',
    '2026-11-21T09:59:60.5-03:00',
  ])('reads the ISO 8601 form %s as the instant it names', (valor) => {
    expect(instante(valor)).toBe(DEZ_HORAS_EM_BRASILIA);
  });

  it('reads the first and last days of week-numbered years and leap years', () => {
    expect(instante('2026-W01-1T00:00Z')).toBe(Date.parse('2025-12-29T00:00:00Z'));
    expect(instante('2020-W53-7T00:00Z')).toBe(Date.parse('2021-01-03T00:00:00Z'));
    expect(instante('2026-W53-1T00:00Z')).toBe(Date.parse('2026-12-28T00:00:00Z'));
    expect(instante('2024-366T00:00Z')).toBe(Date.parse('2024-12-31T00:00:00Z'));
    expect(instante('2016-12-31T23:59:60Z')).toBe(Date.parse('2017-01-01T00:00:00Z'));
  });

  it('keeps the milliseconds', () => {
    expect(instante('2026-11-21T10:00:00.123-03:00')).toBe(DEZ_HORAS_EM_BRASILIA + 123);
    expect(instante('20261121T100000,123-0300')).toBe(DEZ_HORAS_EM_BRASILIA + 123);
    expect(instante('2026-11-21T10:00:00.123000-03:00')).toBe(DEZ_HORAS_EM_BRASILIA + 123);
  });

  it('takes a finer fraction as the next millisecond: what was stored within the one asked for changed before the instant', () => {
    expect(instante('2026-11-21T10:00:00.1230001-03:00')).toBe(DEZ_HORAS_EM_BRASILIA + 124);
    expect(instante('2026-11-21T10:00:00.9999-03:00')).toBe(DEZ_HORAS_EM_BRASILIA + 1000);
    expect(instante('2026-11-21T10:00:00,0001-03:00')).toBe(DEZ_HORAS_EM_BRASILIA + 1);
  });

  it.each([
    '2026-11-21T10:00:00', // no time zone
    '2026-11-21',
    '2026-1121T10:00Z', // a date half extended, half basic
    '2026-11-21T10:0000Z',
    '2026-11-21T10:00:00.Z',
    '2026-11-21T10:00:00-3:00',
    '2026-11-21T10:00:00-03:0',
    '2026-11-21T25:00:00Z',
    // Days and times that do not exist in the other forms.
    '2026-366T00:00Z',
    '2026-000T00:00Z',
    '2025-W53-1T00:00Z',
    '2026-W00-1T00:00Z',
    '2026-W10-8T00:00Z',
    '2026-11-21T24:00:01Z',
    '2026-11-21T24:30:00Z',
    '2026-02-30T24:00:00Z',
    '2026-11-21T23:60:00Z',
    '2026-11-21T23:59:61Z',
    '2026-11-21 10:00:00Z',
    'ontem',
    '',
  ])('refuses %j', (valor) => {
    expect(instante(valor)).toBeUndefined();
  });

  it('leaves a text it does not recognise as it came, for the schema to refuse', () => {
    expect(normalizarDataHora('ontem')).toBe('ontem');
    expect(normalizarDataHora('2026-11-21T10:00:00')).toBe('2026-11-21T10:00:00');
  });

  it('requires desde on the removals', () => {
    expect(ListarRemovidosQuery.safeParse({}).success).toBe(false);
    expect(ListarRemovidosQuery.safeParse({ desde: '2026-11-21T10:00:00-0300' }).success).toBe(true);
  });
});

describe('id and cursor parameters', () => {
  it('accept any 8-4-4-4-12 hex id, in either case, as the lower-case id', () => {
    for (const id of ['0c0e0000-0000-9a63-0000-000000000001', '8001A238-E223-4524-AA87-FB351D6EC20B']) {
      expect(ObterImovelParams.parse({ id }).id).toBe(id.toLowerCase());
      expect(ListarImoveisQuery.parse({ cursor: id }).cursor).toBe(id.toLowerCase());
    }
  });

  it.each(['123', 'nao-e-uuid', '8001a238e2234524aa87fb351d6ec20b', '8001a238-e223-4524-aa87-fb351d6ec20', '8001a238-e223-4524-aa87-fb351d6ec20g'])(
    'refuse %s',
    (id) => {
      expect(ObterImovelParams.safeParse({ id }).success).toBe(false);
      expect(ListarImoveisQuery.safeParse({ cursor: id }).success).toBe(false);
    },
  );
});
