// Which index answers an incremental page fastest. Items of a time window are spread evenly over
// the id space (ids are random uuids), so walking ids until a page is full reads about
// `pagina × listados / naJanela` entries, while reading the window by time reads all of it.

export type PlanoIncremental = 'por-id' | 'por-instante';

export function escolherPlanoIncremental(args: { naJanela: number; listados: number; pagina: number }): PlanoIncremental {
  const { naJanela, listados, pagina } = args;
  if (naJanela === 0) return 'por-instante';
  const custoPorId = ((pagina + 1) * listados) / naJanela;
  return custoPorId < naJanela ? 'por-id' : 'por-instante';
}
