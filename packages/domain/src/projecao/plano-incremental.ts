// Which index answers an incremental page fastest. Items of a time window are spread evenly over
// the id space (ids are random uuids), so walking ids until a page is full visits about
// `pagina × listados / naJanela` rows, each a lookup of the row itself; reading the window by
// time reads all of its entries from a covering index and sorts them, about
// CUSTO_RELATIVO_LINHA times cheaper per entry (measured on a million-property projection).

export type PlanoIncremental = 'por-id' | 'por-instante';

export const CUSTO_RELATIVO_LINHA = 20;

export function escolherPlanoIncremental(args: { naJanela: number; listados: number; pagina: number }): PlanoIncremental {
  const { naJanela, listados, pagina } = args;
  if (naJanela === 0) return 'por-instante';
  const linhasPorId = ((pagina + 1) * listados) / naJanela;
  return linhasPorId * CUSTO_RELATIVO_LINHA < naJanela ? 'por-id' : 'por-instante';
}
