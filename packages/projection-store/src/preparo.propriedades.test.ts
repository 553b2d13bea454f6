// Properties of decoding and preparing, over register events the generator makes and fast-check
// then damages: whatever arrives, decoding answers (an event or a rejection of the closed set),
// never throws; what it accepts is prepared without throwing into a document partners can be
// served (well-formed text, the contract's fields and types), with any condominium name spliced in. The examples are the hand-picked bad values of the
// contract's tests; this is the rest of the space. A failure prints the seed and the shrunk input.
// The run is fixed (a seed) so that CI is repeatable; to search further, set FUZZ_SEED and FUZZ_RUNS.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Imovel, MOTIVOS_REJEICAO, decodificarEvento } from '@imoveis/contracts';
import { comNomeCondominio, prepararEvento } from '@imoveis/domain';
import { gerarCargaInicial, gerarMutacoes } from '@imoveis/generator';

const opcoes = { seed: 31, imoveis: 60, condominios: 6 };
const registros = [...gerarCargaInicial(opcoes), ...gerarMutacoes({ ...opcoes, mutacoes: 120 })].filter((r) => r.valor !== null);
const rodada = { seed: Number(process.env.FUZZ_SEED ?? 2026), numRuns: Number(process.env.FUZZ_RUNS ?? 3_000) };
// A few seconds here; a loaded machine, or a longer search, gets room.
const LIMITE_MS = 10 * 60_000;
const contexto = { fotosBaseUrl: 'https://fotos.exemplo.com.br/marca' };
// A stored document holds only the partner fields, each as the contract types it, but for
// `atualizado_em`: SQLite writes that when the row is written (decision 0001).
const DocumentoGuardado = Imovel.omit({ atualizado_em: true }).strict();

/** Every path to a value inside a JSON value, objects and arrays alike. */
function caminhos(valor: unknown, prefixo: (string | number)[] = []): (string | number)[][] {
  if (typeof valor !== 'object' || valor === null) return [prefixo];
  const filhos = Array.isArray(valor) ? valor.map((v, i) => [i, v] as const) : Object.entries(valor);
  return [prefixo, ...filhos.flatMap(([chave, v]) => caminhos(v, [...prefixo, chave]))];
}

/** The strings inside a JSON value that hold half of a UTF-16 pair alone. */
function textosMalFormados(valor: unknown): string[] {
  if (typeof valor === 'string') return /\p{Cs}/u.test(valor) ? [valor] : [];
  if (typeof valor !== 'object' || valor === null) return [];
  return Object.values(valor).flatMap(textosMalFormados);
}

function alterar(raiz: unknown, caminho: readonly (string | number)[], novo: unknown, apagar: boolean): unknown {
  if (caminho.length === 0) return apagar ? undefined : novo;
  const copia = structuredClone(raiz) as Record<string | number, unknown>;
  let alvo = copia;
  for (const chave of caminho.slice(0, -1)) alvo = alvo[chave] as Record<string | number, unknown>;
  const ultima = caminho.at(-1)!;
  if (apagar && Array.isArray(alvo)) alvo.splice(Number(ultima), 1);
  else if (apagar) delete alvo[ultima];
  else alvo[ultima] = novo;
  return copia;
}

// Values a register might send in any field: what the contract lists and what it does not.
const textoEstranho = fc.constantFrom(
  '',
  ' ',
  '<p>',
  '<script>alert(1)</script>',
  '&nbsp;&amp;&#0;&#x110000;',
  '\u0000\u2028\u2029\ud800',
  'nome_condominio',
  '"nome_condominio":"x"',
  '\\',
  'https://',
  'http://www.youtube.com/watch?v=',
  'https://youtu.be/%00',
  '../../etc/passwd',
  'imoveis/AP1/../01.jpg',
  '2026-02-30T25:61:00Z',
  '2026-11-21T10:00:00 03:00',
  '(11) 98765-4321',
  '123.456.789-09',
  'a'.repeat(10_000),
);
// Links the video and tour rules read into: a known start, then any of the characters that shape a URL.
const linkEstranho = fc
  .tuple(
    fc.constantFrom('https://www.youtube.com/', 'youtu.be/', 'https://www.youtube.com/attribution_link?u=', 'https://www.youtube.com/watch#', 'https://tour.exemplo.com.br/'),
    fc.string({ unit: fc.constantFrom(...'/#?&=%[]@:!. vu1'), maxLength: 16 }),
  )
  .map(([inicio, resto]) => inicio + resto);
const valorQualquer = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  textoEstranho,
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  // Any UTF-16 code units, halves of pairs alone included (JSON carries them as `\ud800`).
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(0, -0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, true, null, [], {}),
);
const alteracao = fc.record({ escolha: fc.nat(), valor: valorQualquer, apagar: fc.boolean() });

/** How far an event went: rejected, another event than a saved property, or a saved property (advertised or not). */
type Desfecho = 'rejeitado' | 'outro' | 'salvo' | 'anunciado';

function verificar(agregado: 'imovel' | 'condominio', chave: string | null, valor: string, nomeCondominio: string | null): Desfecho {
  const decodificado = decodificarEvento(agregado, chave, valor);
  if (!decodificado.ok) {
    expect(MOTIVOS_REJEICAO).toContain(decodificado.motivo);
    return 'rejeitado';
  }
  const preparado = prepararEvento(decodificado.evento, contexto, decodificado.privados);
  if (preparado.tipo !== 'imovel.salvo') return 'outro';
  // Well-formed text only: strict JSON readers refuse an escaped half of a UTF-16 pair.
  expect(textosMalFormados(JSON.parse(preparado.documento))).toEqual([]);
  const documento = JSON.parse(comNomeCondominio(preparado.documento, nomeCondominio)) as unknown;
  expect(documento).toMatchObject({ id: preparado.id, nome_condominio: nomeCondominio });
  if (!preparado.anunciado) return 'salvo';
  const servido = DocumentoGuardado.safeParse(documento);
  expect(servido.success ? [] : servido.error.issues).toEqual([]);
  return 'anunciado';
}

describe('decoding and preparing, over damaged register events', () => {
  it('answers every event with a document partners can be served or a rejection of the closed set', () => {
    const desfechos: Record<Desfecho, number> = { rejeitado: 0, outro: 0, salvo: 0, anunciado: 0 };
    fc.assert(
      fc.property(fc.constantFrom(...registros), fc.array(alteracao, { minLength: 1, maxLength: 4 }), fc.option(fc.string({ unit: 'binary' })), (registro, alteracoes, nome) => {
        let evento: unknown = JSON.parse(registro.valor!);
        for (const { escolha, valor, apagar } of alteracoes) {
          const todos = caminhos(evento);
          evento = alterar(evento, todos[escolha % todos.length]!, valor, apagar);
        }
        desfechos[verificar(registro.topico === 'imoveis' ? 'imovel' : 'condominio', registro.chave, JSON.stringify(evento) ?? 'undefined', nome)]++;
      }),
      rodada,
    );
    // Damage that got every event rejected would check nothing of the documents: a share of the
    // runs must reach the served document's schema (about 15 % with the pinned seed).
    expect(desfechos.anunciado, JSON.stringify(desfechos)).toBeGreaterThanOrEqual(rodada.numRuns / 10);
    expect(desfechos.rejeitado, JSON.stringify(desfechos)).toBeGreaterThanOrEqual(rodada.numRuns / 10);
  }, LIMITE_MS);

  it('reads any link in video_url and tour_virtual_url into a document (the link null or kept), never throwing', () => {
    const salvos = registros.filter((r) => r.topico === 'imoveis' && r.valor!.includes('"imovel.salvo"'));
    fc.assert(
      fc.property(fc.constantFrom(...salvos), fc.constantFrom('video_url', 'tour_virtual_url'), linkEstranho, (registro, campo, link) => {
        const evento = JSON.parse(registro.valor!) as { dados: Record<string, unknown> };
        evento.dados[campo] = link;
        expect(verificar('imovel', registro.chave, JSON.stringify(evento), null)).not.toBe('rejeitado');
      }),
      rodada,
    );
  }, LIMITE_MS);

  it('answers any text at all, JSON or not, on either topic', () => {
    fc.assert(
      fc.property(fc.constantFrom<'imovel' | 'condominio'>('imovel', 'condominio'), fc.option(fc.uuid()), fc.oneof(fc.string(), fc.json()), (agregado, chave, valor) => {
        verificar(agregado, chave, valor, null);
      }),
      rodada,
    );
  }, LIMITE_MS);
});
