import { describe, expect, it } from 'vitest';
import { decodificarEvento } from './decode.ts';

const ID = '3f0c6a52-7b1e-4e8a-9d2f-5a1b2c3d4e5f';
const salvo = (dados: Record<string, unknown>) =>
  JSON.stringify({
    evento_id: '6f1d9a8e-3c1b-4b7e-9f55-2b0f0f6b8f10',
    tipo: 'imovel.salvo',
    versao_schema: 1,
    ocorrido_em: '2026-11-21T14:03:12.418-03:00',
    versao: 1,
    dados: {
      id: ID,
      codigo: 'AP1',
      ativo: true,
      publicar_no_site: true,
      situacao: 'Disponível',
      tipo: null,
      categoria: null,
      finalidade: null,
      lancamento: null,
      titulo: null,
      descricao_html: null,
      endereco: { logradouro: null, numero: null, complemento: null, bairro: null, cidade: null, uf: null, cep: null, latitude: null, longitude: null, exibicao: 'completo' },
      valores: { venda: null, aluguel: null, condominio: null, iptu: null, iptu_periodicidade: null, preco_sob_consulta: false },
      aceita_financiamento: null,
      aceita_permuta: null,
      mobiliado: null,
      dormitorios: null,
      suites: null,
      banheiros: null,
      vagas: null,
      area_util_m2: null,
      area_total_m2: null,
      condominio_id: null,
      caracteristicas: [],
      fotos: [],
      video_url: null,
      tour_virtual_url: null,
      criado_em: null,
      ...dados,
    },
  });

describe('decodificarEvento', () => {
  it('accepts the base event of these tests', () => {
    expect(decodificarEvento('imovel', ID, salvo({}))).toMatchObject({ ok: true });
  });

  // "A field with a wrong value inside an otherwise valid event ... the event is applied."
  it('applies an event whose code or a photo key is an empty string: wrong values, not a broken contract', () => {
    const foto = { arquivo: '', ordem: 1, principal: true, publica: true, alterada_em: null };
    expect(decodificarEvento('imovel', ID, salvo({ codigo: '', fotos: [foto] }))).toMatchObject({ ok: true });
    const exclusao = JSON.stringify({ evento_id: '6f1d9a8e-3c1b-4b7e-9f55-2b0f0f6b8f10', tipo: 'imovel.excluido', versao_schema: 1, ocorrido_em: '2026-11-21T14:03:12.418-03:00', versao: 2, dados: { id: ID, codigo: '' } });
    expect(decodificarEvento('imovel', ID, exclusao)).toMatchObject({ ok: true });
  });

  it('keeps ids in lower case: a uuid sent in upper case is the same property, and its key still matches', () => {
    const condominio = 'AB0C6A52-7B1E-4E8A-9D2F-5A1B2C3D4E5F';
    const decodificado = decodificarEvento('imovel', ID.toUpperCase(), salvo({ id: ID.toUpperCase(), condominio_id: condominio }));
    expect(decodificado).toMatchObject({ ok: true, evento: { dados: { id: ID, condominio_id: condominio.toLowerCase() } } });
    const exclusao = JSON.stringify({ evento_id: '6f1d9a8e-3c1b-4b7e-9f55-2b0f0f6b8f10', tipo: 'condominio.excluido', versao_schema: 1, ocorrido_em: '2026-11-21T14:03:12.418-03:00', versao: 2, dados: { id: condominio } });
    expect(decodificarEvento('condominio', condominio, exclusao)).toMatchObject({ ok: true, evento: { dados: { id: condominio.toLowerCase() } } });
    expect(decodificarEvento('imovel', ID.toUpperCase(), salvo({}))).toMatchObject({ ok: true });
    expect(decodificarEvento('imovel', ID.replace('3f', '4f'), salvo({}))).toMatchObject({ ok: false, motivo: 'chave-divergente' });
  });

  it('reads a date-time field that is no date-time with an offset as not informed, and applies the event', () => {
    const foto = (alterada_em: string) => ({ arquivo: 'a.jpg', ordem: 1, principal: true, publica: true, alterada_em });
    const decodificado = decodificarEvento('imovel', ID, salvo({ criado_em: '2026-11-20 10:00', fotos: [foto('ontem'), foto('2026-11-20T10:00:00-03:00')] }));
    expect(decodificado).toMatchObject({
      ok: true,
      evento: { dados: { criado_em: null, fotos: [{ alterada_em: null }, { alterada_em: '2026-11-20T10:00:00-03:00' }] } },
    });
    expect(decodificarEvento('imovel', ID, salvo({ criado_em: 20_261_120 }))).toMatchObject({ ok: false, motivo: 'contrato-invalido' });
  });

  it('says why an event breaks the contract without any of its values, private ones included: the reason is logged and sent with the dead letter', () => {
    const valores = ['Proprietária Sigilosa', '529.982.247-25', 'AP-SIGILOSO', 'nota sigilosa', 'Rua Sigilosa'];
    const json = salvo({
      proprietario: { nome: valores[0], cpf: valores[1] },
      codigo: [valores[2]],
      situacao: { nota: valores[3] },
      endereco: valores[4],
      titulo: 98_765,
      fotos: [{ arquivo: 'sigilosa.jpg', ordem: 'sigilosa', principal: true, publica: true, alterada_em: null }],
    });
    const decodificado = decodificarEvento('imovel', ID, json);
    expect(decodificado).toMatchObject({ ok: false, motivo: 'contrato-invalido' });
    const detalhe = decodificado.ok ? '' : decodificado.detalhe;
    expect(detalhe).toMatch(/codigo/);
    for (const trecho of ['Sigilosa', 'sigilosa', '529', 'AP-', '98765', '98_765']) expect(detalhe).not.toContain(trecho);
  });

  it('reads a condominio_id that is no uuid as pointing to no condominium, and applies the event', () => {
    for (const condominioId of ['', 'N/A', '{ab0c6a52-7b1e-4e8a-9d2f-5a1b2c3d4e5f}']) {
      expect(decodificarEvento('imovel', ID, salvo({ condominio_id: condominioId })), condominioId).toMatchObject({ ok: true, evento: { dados: { condominio_id: null } } });
    }
    expect(decodificarEvento('imovel', ID, salvo({ condominio_id: 42 }))).toMatchObject({ ok: false, motivo: 'contrato-invalido' });
  });

  it('reads a date-time field in another ISO 8601 form as the same instant, in RFC 3339', () => {
    const foto = { arquivo: 'a.jpg', ordem: 1, principal: true, publica: true, alterada_em: '2026-11-20T13:00z' };
    expect(decodificarEvento('imovel', ID, salvo({ criado_em: '2026-11-20T10:00:00-0300', fotos: [foto] }))).toMatchObject({
      ok: true,
      evento: { dados: { criado_em: '2026-11-20T10:00:00-03:00', fotos: [{ alterada_em: '2026-11-20T13:00:00Z' }] } },
    });
  });

  it('reads a date-time at the day\'s end or on a leap second as the instant it names, where it read none', () => {
    const foto = { arquivo: 'a.jpg', ordem: 1, principal: true, publica: true, alterada_em: '2016-12-31T23:59:60Z' };
    expect(decodificarEvento('imovel', ID, salvo({ criado_em: '2026-11-20T24:00:00-03:00', fotos: [foto] }))).toMatchObject({
      ok: true,
      evento: { dados: { criado_em: '2026-11-21T00:00:00-03:00', fotos: [{ alterada_em: '2017-01-01T00:00:00Z' }] } },
    });
    const comOcorridoEm = JSON.stringify({ ...(JSON.parse(salvo({})) as object), ocorrido_em: '2016-12-31T23:59:60Z' });
    expect(decodificarEvento('imovel', ID, comOcorridoEm)).toMatchObject({ ok: true, evento: { ocorrido_em: '2017-01-01T00:00:00Z' } });
    // A day that does not exist is still none.
    expect(decodificarEvento('imovel', ID, salvo({ criado_em: '2026-02-30T24:00:00Z' }))).toMatchObject({ ok: true, evento: { dados: { criado_em: null } } });
  });

  it('reads the envelope\'s ocorrido_em in any ISO 8601 form with an offset, and refuses the event without one', () => {
    const comOcorridoEm = (ocorridoEm: string) => JSON.stringify({ ...(JSON.parse(salvo({})) as object), ocorrido_em: ocorridoEm });
    expect(decodificarEvento('imovel', ID, comOcorridoEm('2026-11-21t14:03:12z'))).toMatchObject({ ok: true, evento: { ocorrido_em: '2026-11-21T14:03:12Z' } });
    expect(decodificarEvento('imovel', ID, comOcorridoEm('2026-11-21T14:03-0300'))).toMatchObject({ ok: true, evento: { ocorrido_em: '2026-11-21T14:03:00-03:00' } });
    expect(decodificarEvento('imovel', ID, comOcorridoEm('2026-11-21T14:03:12'))).toMatchObject({ ok: false, motivo: 'contrato-invalido' });
  });

  it('accepts an event whose numbers overflow a double: wrong values, for the mapping to correct', () => {
    const foto = { arquivo: 'a.jpg', ordem: 0, principal: true, publica: true, alterada_em: null };
    const json = salvo({ vagas: 0, fotos: [foto] }).replace('"ordem":0', '"ordem":1e400').replace('"vagas":0', '"vagas":-1e400');
    expect(decodificarEvento('imovel', ID, json)).toMatchObject({ ok: true, evento: { dados: { vagas: -Infinity, fotos: [{ ordem: Infinity }] } } });
  });

  it('drops the private fields from the event, and keeps their values beside it for the mapping to mask', () => {
    const privados = {
      proprietario: { nome: 'Renata Santos Vieira', cpf: '529.982.247-25', telefone: '(11) 98765-4321', email: 'r@x.com' },
      corretor: { nome: 'Ana Souza', creci: 'CRECI-SP 123456-F', telefone: '(11) 3333-4444', email: 'a@x.com' },
      matricula: '45.678',
    };
    const d = decodificarEvento('imovel', ID, salvo({ ...privados, titulo: 'Casa da Renata Vieira' }));
    expect(d).toMatchObject({
      ok: true,
      privados: {
        nomes: ['Renata Santos Vieira', 'Ana Souza'],
        codigos: ['CRECI-SP 123456-F', '45.678', 'r@x.com', 'a@x.com'],
        numeros: ['(11) 98765-4321', '(11) 3333-4444', '529.982.247-25'],
      },
      evento: { dados: { titulo: 'Casa da Renata Vieira' } },
    });
    expect(d.ok && Object.keys(d.evento.dados).filter((k) => k in privados)).toEqual([]);
    expect(JSON.stringify(d.ok && d.evento)).not.toMatch(/529\.982|98765|r@x\.com|123456-F/);
  });

  it('applies an event whose private fields have a shape of their own: they are no business of the partner document', () => {
    expect(decodificarEvento('imovel', ID, salvo({ proprietario: 42, corretor: 'x', matricula: { n: 1 } }))).toMatchObject({ ok: true });
  });

  it('takes any 8-4-4-4-12 hex id, as the API does', () => {
    const id = '0c0e0000-0000-9a63-0000-000000000001';
    expect(decodificarEvento('imovel', id, salvo({ id }))).toMatchObject({ ok: true, evento: { dados: { id } } });
    expect(decodificarEvento('imovel', null, salvo({ id: 'AP1234' }))).toMatchObject({ ok: false, motivo: 'contrato-invalido' });
  });

  it('reads half a UTF-16 pair sent alone (the JSON escape \\ud800) as U+FFFD, as UTF-8 decoding would, and keeps escaped pairs', () => {
    const valor = salvo({ titulo: 'T', codigo: 'C' }).replace('"titulo":"T"', '"titulo":"a\\ud800b\\udc00c"').replace('"codigo":"C"', '"codigo":"\\ud83d\\ude00"');
    const d = decodificarEvento('imovel', ID, valor);
    expect(d).toMatchObject({ ok: true, evento: { dados: { titulo: 'a\ufffdb\ufffdc', codigo: '😀' } } });
  });

  it('quotes what the producer sent in a rejection, cut short: the detail goes to a log line and a DLQ header', () => {
    const longo = 'x'.repeat(100_000);
    const detalhes = [
      decodificarEvento('imovel', ID, JSON.stringify({ ...JSON.parse(salvo({})), tipo: longo })),
      decodificarEvento('imovel', ID, JSON.stringify({ ...JSON.parse(salvo({})), versao_schema: { longo } })),
      decodificarEvento('imovel', `${longo}`, salvo({})),
    ].map((d) => (d.ok ? '' : d.detalhe));
    expect(detalhes).toEqual([
      `tipo "${'x'.repeat(59)}… no tópico de imovel`,
      `versao_schema {"longo":"${'x'.repeat(50)}…`,
      `chave "${'x'.repeat(59)}… difere de dados.id ${ID}`,
    ]);
  });

  it('rejects a code that is not a string: the contract itself is broken', () => {
    expect(decodificarEvento('imovel', ID, salvo({ codigo: null }))).toMatchObject({ ok: false, motivo: 'contrato-invalido' });
  });

  it('rejects bytes that are not UTF-8 instead of reading them as U+FFFD', () => {
    const [antes, depois] = salvo({ titulo: 'Sala @' }).split('@') as [string, string];
    const latin1 = Buffer.concat([Buffer.from(antes), Buffer.from([0xe7, 0xe3]), Buffer.from(depois)]);
    expect(decodificarEvento('imovel', ID, latin1)).toEqual({ ok: false, motivo: 'json-invalido', detalhe: 'o valor não é UTF-8 válido' });
    expect(decodificarEvento('imovel', ID, Buffer.from(salvo({ titulo: 'Ação' })))).toMatchObject({ ok: true, evento: { dados: { titulo: 'Ação' } } });
  });

  it.each<[caso: string, motivo: string, valor: string]>([
    ['not JSON', 'json-invalido', 'isto não é json {'],
    ['JSON that is no object', 'json-invalido', '[1, 2]'],
    ['another versao_schema', 'versao-schema-desconhecida', JSON.stringify({ ...JSON.parse(salvo({})), versao_schema: 2 })],
    ['an unknown tipo', 'tipo-desconhecido', JSON.stringify({ ...JSON.parse(salvo({})), tipo: 'imovel.reformado' })],
    ["a condominium's tipo on the properties' topic", 'tipo-desconhecido', JSON.stringify({ ...JSON.parse(salvo({})), tipo: 'condominio.excluido' })],
    // The envelope's own rules: versao an integer ≥ 1, evento_id a uuid, ocorrido_em a date-time with offset.
    ...([0, -1, 1.5, '1', null] as const).map((versao) => [`versao ${JSON.stringify(versao)}`, 'contrato-invalido', JSON.stringify({ ...JSON.parse(salvo({})), versao })] as [string, string, string]),
    ...(['evt-1', '', 42, null] as const).map((evento_id) => [`evento_id ${JSON.stringify(evento_id)}`, 'contrato-invalido', JSON.stringify({ ...JSON.parse(salvo({})), evento_id })] as [string, string, string]),
    ['no evento_id', 'contrato-invalido', JSON.stringify({ ...JSON.parse(salvo({})), evento_id: undefined })],
    ['an ocorrido_em without offset', 'contrato-invalido', JSON.stringify({ ...JSON.parse(salvo({})), ocorrido_em: '2026-11-21T10:00:00' })],
  ])('rejects %s as %s', (_caso, motivo, valor) => {
    expect(decodificarEvento('imovel', ID, valor)).toMatchObject({ ok: false, motivo });
  });
});
