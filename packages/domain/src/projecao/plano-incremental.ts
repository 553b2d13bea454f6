// Which index answers an incremental page fastest. Items of a time window are spread evenly over
// the id space (ids are random uuids), so walking ids until a page is full reads about
// `pagina × listados / naJanela` index entries; reading the window by time reads all of its
// entries and sorts them, CUSTO_RELATIVO_ORDENACAO times the cost of an entry walked in order.
// Either way only the page's own rows are read. The worst page reads about √(pagina × listados)
// entries: about 7,000 for pages of 50 in a million-property projection.

export type PlanoIncremental = 'por-id' | 'por-instante';

export const CUSTO_RELATIVO_ORDENACAO = 2;

export function escolherPlanoIncremental(args: { naJanela: number; listados: number; pagina: number }): PlanoIncremental {
  const { naJanela, listados, pagina } = args;
  if (naJanela === 0) return 'por-instante';
  const entradasPorId = ((pagina + 1) * listados) / naJanela;
  return entradasPorId < naJanela * CUSTO_RELATIVO_ORDENACAO ? 'por-id' : 'por-instante';
}
