// The guard on VERSAO_DAS_REGRAS (decision 0011): what decoding and preparing make of a fixed
// sample of generated register events, pinned beside the version. A change to the rules changes
// the digest; a change to a rejection's wording does not (partners never see it).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodificarEvento, mascaraDePrivados, type ValoresPrivados } from '@imoveis/contracts';
import { VERSAO_DAS_REGRAS, comNomeCondominio } from '@imoveis/domain';
import { gerarCargaInicial, gerarMutacoes } from '@imoveis/generator';
import { prepararEvento } from './projecao.ts';

function digestoDasRegras(): string {
  const hash = createHash('sha256');
  const opcoes = { seed: 2026, imoveis: 2_000, condominios: 40 };
  for (const r of [...gerarCargaInicial(opcoes), ...gerarMutacoes({ ...opcoes, mutacoes: 2_000 })]) {
    if (r.valor === null) continue;
    const d = decodificarEvento(r.topico === 'imoveis' ? 'imovel' : 'condominio', r.chave, r.valor);
    if (!d.ok) {
      hash.update('rejeitado\n');
      continue;
    }
    const preparado = prepararEvento(d.evento, { fotosBaseUrl: 'https://fotos.exemplo.com.br' }, d.privados);
    // The condominium's name as the writer splices it into a stored document.
    const comNome = preparado.tipo === 'imovel.salvo' ? comNomeCondominio(preparado.documento, 'Edifício Aurora') : '';
    hash.update(`${JSON.stringify(preparado)} ${comNome}\n`);
  }
  // The generator types private values into free text only whole: the masking's other forms are
  // read from texts of their own (privados.test.ts says what each should give).
  for (const [texto, valores] of TEXTOS_COM_PRIVADOS) hash.update(`${mascaraDePrivados(valores)(texto)}\n`);
  return hash.digest('hex');
}

const nomes = (...n: string[]): ValoresPrivados => ({ nomes: n, codigos: [] });
/** One text for each way a private value is typed, and for each text that only looks like one. */
const TEXTOS_COM_PRIVADOS: [string, ValoresPrivados][] = [
  ['Tratar com renata vieira ou RENATA SANTOS VIEIRA.', nomes('Renata Santos Vieira')],
  ['Corretora Ana  Souza Lima e Ana\nLima; Ana Maria Souza.', nomes('Ana Souza Lima', 'Ana Maria de Souza')],
  ['Joao Goncalves de Araujo, Joa\u0303o Arau\u0301jo.', nomes('João Gonçalves de Araújo')],
  ['Falar com José Silva ou Carlos da Silva.', nomes('Dr. José Carlos da Silva Filho')],
  ['Siga @renata.vieira ou Ana-Maria Souza.', nomes('Renata Vieira', 'Ana Maria Souza')],
  ['Renata S. Vieira, renata s vieira, Carlos E.M. Silva.', nomes('Renata Santos Vieira', 'Carlos Eduardo Moreira da Silva')],
  [
    'Maria A Silva, Luiz O Ramos; LUIZ O RAMOS; ACESSO A VITÓRIA E SERRA; Vitória E. Serra.',
    nomes('Maria Aparecida Silva', 'Luiz Otávio Ramos', 'Vitória Elisa Serra'),
  ],
  ['Fácil acesso a São Paulo e Santos. Rodovia São Paulo - Santos.', nomes('Paulo Eduardo Santos')],
  ['Casa em São José dos Campos. Santa Maria da Serra.', nomes('José Carlos dos Campos', 'Maria José da Serra')],
  ['Casa da Maria e Silva Imóveis; Maria E. Souza e Silva.', nomes('Maria Eduarda Souza e Silva')],
  ['Dono: Vieira, Renata S. Sala com muita luz, clara e arejada.', nomes('Renata Santos Vieira', 'Clara Luz')],
  ['Dona: MARIA DA SILVA; Ana Souza Lima e Ana Lima.', nomes('Maria Silva', 'Ana Souza-Lima')],
  ['Dono: Renata Vieira; Pedro D´Ávila; Pedro (Jr.) D’Ávila.', nomes('Vieira, Renata Santos', 'Pedro (Jr.) D’Ávila')],
  ['Engenheiro Paulo Lins, com Júlia Sant´Anna Souza.', nomes('Eng. Paulo Roberto Lins', 'Júlia Sant’Anna Souza')],
  ['Rua Ana Souzana, 10; casa sobre a rocha.', nomes('Ana Souza', 'Pedro Rocha')],
  [
    'CRECI SP 998877, CRECI: SP/998877, CRECI 123456-F, Matrícula 45.678, CRECI-SP 9988771.',
    { nomes: [], codigos: ['CRECI-SP 998877', 'CRECI-SP 123456-F', '45.678'] },
  ],
  [
    'Ligue 11 97777 12 34, (11)97777-1234, 977771234, CPF 529 982 247 25, josefina.privada@GMAIL.com.',
    { nomes: [], codigos: ['josefina.privada@gmail.com'], numeros: ['(11) 97777-1234', '529.982.247-25'] },
  ],
];

describe('VERSAO_DAS_REGRAS', () => {
  it('moves with what the rules make of the same register events', () => {
    // Failing here? If partners would see anything different, bump VERSAO_DAS_REGRAS (projections
    // made by the old rules then warn until rebuilt) and pin the new digest; if only the generator
    // changed, pin the new digest alone.
    expect({ versao: VERSAO_DAS_REGRAS, digesto: digestoDasRegras() }).toEqual({ versao: 5, digesto: '24afa462736df5d413ba148166a6ca8fbdc6b9b78ed9d2c2426d4b9ce0a81dd3' });
  });
});
