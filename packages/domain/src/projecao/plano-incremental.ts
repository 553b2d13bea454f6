// Which index answers an incremental page fastest. A page is the window's items (changed since an
// instant) in id order; ids are random uuids, so a window's items are spread evenly over the id
// space. Three ways to read one, costs in units of one index entry read and sorted:
// - por-instante: read the whole window by instant and sort it by id: `naJanela`.
// - por-id: walk ids from the cursor until the page is full: `(pagina + 1) × listados / naJanela`
//   entries, each cheaper than one sorted.
// - por-faixa: the same by instant, but one id range (the ids' first two hex digits, FAIXAS of
//   them) at a time, until the page is full: each range costs a statement and sorting its share of
//   the window.
// Constants fitted on a million-property projection (pages of 10, 50 and 200; the measured
// winner is the one chosen across windows of 200 to 160,000 items). The worst page, where two
// plans cost the same, takes a half to a third of its time with por-instante and por-id only
// (decision 0001).

export type PlanoIncremental = 'por-id' | 'por-instante' | 'por-faixa';

/** Id ranges of the by-range index: `substr(id, 1, 2)`, 00 to ff. */
export const FAIXAS = 256;
/** An entry walked in id order, against one read and sorted. */
const CUSTO_ENTRADA_POR_ID = 0.75;
/** One statement of the by-range plan. */
const CUSTO_CONSULTA_FAIXA = 180;
/** An entry read and sorted in the by-range plan. */
const CUSTO_ENTRADA_FAIXA = 5;

function custosIncrementais(args: { naJanela: number; listados: number; pagina: number }): Record<PlanoIncremental, number> {
  const { naJanela, listados, pagina } = args;
  if (naJanela === 0) return { 'por-instante': 0, 'por-id': Infinity, 'por-faixa': Infinity };
  const porFaixa = naJanela / FAIXAS;
  const faixasLidas = Math.min(FAIXAS, 1 + pagina / porFaixa);
  return {
    'por-instante': naJanela,
    'por-id': (((pagina + 1) * listados) / naJanela) * CUSTO_ENTRADA_POR_ID,
    'por-faixa': faixasLidas * (CUSTO_CONSULTA_FAIXA + porFaixa * CUSTO_ENTRADA_FAIXA),
  };
}

export function escolherPlanoIncremental(args: { naJanela: number; listados: number; pagina: number }): PlanoIncremental {
  const custos = custosIncrementais(args);
  let melhor: PlanoIncremental = 'por-instante';
  for (const plano of ['por-faixa', 'por-id'] as const) if (custos[plano] < custos[melhor]) melhor = plano;
  return melhor;
}
