// CPU cost per register event of each projector stage (parse, zod, mapping, serialisation): run with `pnpm exec tsx bench/mapeamento.bench.ts [eventos] [rodadas]`.
import { decodificarEvento, EventoImovel, type ImovelRegistro } from '@imoveis/contracts';
import { mapearImovel, prepararEvento, serializarDocumento, type ContextoMapeamento } from '@imoveis/domain';
import { gerarCargaInicial } from '@imoveis/generator';

const EVENTOS = Number(process.argv[2] ?? 30_000);
const RODADAS = Number(process.argv[3] ?? 7);
const AQUECIMENTO = 2;
const CONTEXTO: ContextoMapeamento = { nomeCondominio: 'Residencial Aurora', fotosBaseUrl: 'https://fotos.exemplo.com.br/wm' };

const registros = [...gerarCargaInicial({ seed: 20_261_120, imoveis: EVENTOS, condominios: Math.ceil(EVENTOS / 50) })].filter(
  (r) => r.topico === 'imoveis' && r.valor !== null,
);
const textos = registros.map((r) => r.valor!);
const chaves = registros.map((r) => r.chave);
const objetos = textos.map((t): unknown => JSON.parse(t));
// Each saved property with its context as the projector's preparing step makes it: the private
// values decoding keeps aside are masked in its free text.
const dados: { registro: ImovelRegistro; contexto: ContextoMapeamento }[] = [];
for (let i = 0; i < textos.length; i++) {
  const r = decodificarEvento('imovel', chaves[i]!, textos[i]!);
  if (!r.ok) throw new Error(`evento ${i} rejeitado: ${r.motivo} ${r.detalhe}`);
  if (r.evento.tipo === 'imovel.salvo') dados.push({ registro: r.evento.dados, contexto: { ...CONTEXTO, ...(r.privados && { privados: r.privados }) } });
}
const documentos = dados.map((d) => mapearImovel(d.registro, d.contexto));

let sumidouro = 0; // keeps every result alive, so no stage is optimised away
const estagios: Record<string, { n: number; rodar: () => void }> = {
  'JSON.parse': { n: textos.length, rodar: () => { for (const t of textos) sumidouro += JSON.parse(t) === null ? 1 : 0; } },
  'zod safeParse': { n: objetos.length, rodar: () => { for (const o of objetos) sumidouro += EventoImovel.safeParse(o).success ? 1 : 0; } },
  'decodificarEvento': {
    n: textos.length,
    rodar: () => { for (let i = 0; i < textos.length; i++) sumidouro += decodificarEvento('imovel', chaves[i]!, textos[i]!).ok ? 1 : 0; },
  },
  'mapearImovel': { n: dados.length, rodar: () => { for (const d of dados) sumidouro += mapearImovel(d.registro, d.contexto).fotos.length; } },
  'serializarDocumento': { n: documentos.length, rodar: () => { for (const d of documentos) sumidouro += serializarDocumento(d).length; } },
  // What a preparing thread does with each message (prepararEvento: mapping, serialising, the
  // digest of what the public fields give).
  'total (decodificarEvento+prepararEvento)': {
    n: textos.length,
    rodar: () => {
      for (let i = 0; i < textos.length; i++) {
        const r = decodificarEvento('imovel', chaves[i]!, textos[i]!);
        const preparado = r.ok ? prepararEvento(r.evento, CONTEXTO, r.privados) : null;
        if (preparado?.tipo === 'imovel.salvo') sumidouro += preparado.documento.length;
      }
    },
  },
};

const tempos = new Map<string, number[]>(Object.keys(estagios).map((nome) => [nome, []]));
for (let rodada = 0; rodada < AQUECIMENTO + RODADAS; rodada++) {
  for (const [nome, { rodar }] of Object.entries(estagios)) {
    const inicio = process.hrtime.bigint();
    rodar();
    const ms = Number(process.hrtime.bigint() - inicio) / 1e6;
    if (rodada >= AQUECIMENTO) tempos.get(nome)!.push(ms);
  }
}

const mediana = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${textos.length} eventos (${dados.length} imovel.salvo), ${RODADAS} rodadas após ${AQUECIMENTO} de aquecimento; mediana:`);
for (const [nome, { n }] of Object.entries(estagios)) {
  const ms = mediana(tempos.get(nome)!);
  console.log(`${nome.padEnd(40)} ${Math.round((n / ms) * 1000).toLocaleString('en-US').padStart(10)} ev/s ${((ms * 1000) / n).toFixed(2).padStart(8)} µs/ev`);
}
if (sumidouro === -1) console.log('');
