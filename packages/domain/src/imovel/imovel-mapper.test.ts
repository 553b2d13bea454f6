import { Imovel, ImovelRegistro, valoresPrivados } from '@imoveis/contracts';
import { describe, expect, it } from 'vitest';
import { serializarDocumento } from './documento-json.ts';
import { mapearImovel, mapearImovelEPublico, type ContextoMapeamento } from './imovel-mapper.ts';
import { FOTOS_BASE_URL, VALORES_PRIVADOS, comEndereco, comValores, payloadRegistro, registro } from './registro-de-teste.ts';

const contexto: ContextoMapeamento = { nomeCondominio: 'Edifício Aurora', fotosBaseUrl: FOTOS_BASE_URL };
const DocumentoImovelSchema = Imovel.omit({ atualizado_em: true });

describe('mapearImovel', () => {
  it('maps a complete register record field by field', () => {
    expect(mapearImovel(registro(), contexto)).toEqual({
      id: '3f0c6a52-7b1e-4e8a-9d2f-5a1b2c3d4e5f',
      codigo: 'AP1234',
      publicado: true,
      tipo: 'Apartamento',
      categoria: 'Residencial',
      finalidade: 'Venda e Locação',
      status_comercial: 'Disponível',
      lancamento: false,
      titulo: 'Apartamento com vista para o parque',
      descricao: 'Lindo apartamento de 120 m², reformado em 2024.\n\n- Varanda gourmet\n- Piscina & academia',
      logradouro: 'Rua das Acácias',
      numero: null,
      complemento: null,
      bairro: 'Vila Mariana',
      cidade: 'São Paulo',
      uf: 'SP',
      cep: '04101000',
      latitude: -23.587416,
      longitude: -46.638297,
      exibir_endereco: 'rua',
      valor_venda: 950000,
      valor_aluguel: 4800,
      valor_condominio: 1200.5,
      valor_iptu: 3600,
      periodicidade_iptu: 'Anual',
      ocultar_preco: false,
      aceita_financiamento: true,
      aceita_permuta: false,
      mobiliado: 'Mobiliado',
      quartos: 3,
      suites: 1,
      banheiros: 2,
      vagas: 2,
      area_util: 120,
      area_total: 145.3,
      nome_condominio: 'Edifício Aurora',
      caracteristicas: ['Academia', 'Piscina', 'varanda gourmet'],
      fotos: [
        { url: `${FOTOS_BASE_URL}/imoveis/AP1234/01.jpg?v=1795179600000`, ordem: 1, principal: true },
        { url: `${FOTOS_BASE_URL}/imoveis/AP1234/02.jpg`, ordem: 2, principal: false },
      ],
      video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      tour_virtual_url: 'https://tour.exemplo.com.br/AP1234',
      criado_em: '2025-03-02T11:15:30.000Z',
    });
  });

  it('produces the keys in the order of the partner Imovel schema, without atualizado_em', () => {
    const chavesDoSchema = Object.keys(Imovel.shape).filter((chave) => chave !== 'atualizado_em');
    expect(Object.keys(mapearImovel(registro(), contexto))).toEqual(chavesDoSchema);
  });

  it('produces a document that validates against the partner schema', () => {
    expect(DocumentoImovelSchema.safeParse(mapearImovel(registro(), contexto)).success).toBe(true);
  });

  it('produces a valid document from a record full of wrong values', () => {
    const cheioDeErros = ImovelRegistro.parse({
      ...payloadRegistro(),
      tipo: '  ',
      categoria: 'Rural',
      finalidade: 'Permuta',
      situacao: 'Suspenso',
      titulo: null,
      descricao_html: '<p> </p>',
      endereco: { uf: 'zz', cep: 'abc', latitude: 200, longitude: -500, exibicao: '???' },
      valores: { venda: -5, aluguel: Number.POSITIVE_INFINITY, condominio: -1, iptu: null, iptu_periodicidade: 'bienal', preco_sob_consulta: false },
      dormitorios: -1,
      suites: 1.5,
      banheiros: Number.NaN,
      vagas: -2,
      area_util_m2: -10,
      caracteristicas: ['  ', ''],
      fotos: [
        { arquivo: 'a b/c.jpg', ordem: 0, principal: true, publica: true },
        { arquivo: 'd.jpg', ordem: 0, principal: true, publica: true },
      ],
      video_url: 'https://vimeo.com/1',
      tour_virtual_url: 'http://tour.exemplo.com',
      criado_em: null,
    });
    const documento = mapearImovel(cheioDeErros, { nomeCondominio: null, fotosBaseUrl: 'https://cdn.exemplo.com/' });
    expect(DocumentoImovelSchema.parse(documento)).toEqual(documento);
    expect(documento).toMatchObject({
      tipo: null,
      categoria: null,
      finalidade: null,
      status_comercial: null,
      titulo: 'Imóvel AP1234',
      descricao: null,
      uf: null,
      cep: null,
      latitude: null,
      longitude: null,
      exibir_endereco: 'bairro',
      valor_venda: null,
      valor_aluguel: null,
      quartos: null,
      suites: null,
      banheiros: null,
      vagas: null,
      area_util: null,
      caracteristicas: [],
      fotos: [
        { url: 'https://cdn.exemplo.com/a%20b/c.jpg', ordem: 1, principal: true },
        { url: 'https://cdn.exemplo.com/d.jpg', ordem: 2, principal: false },
      ],
      video_url: null,
      tour_virtual_url: null,
      criado_em: null,
    });
  });

  it('lets no private value of the register reach the partner document', () => {
    const payload = {
      ...payloadRegistro(),
      // The owner's contacts and the internal notes were also typed into the free text, as agents sometimes do.
      titulo: 'Apto com vista, ligue (11) 97777-1234',
      descricao_html:
        '<p>Falar com josefina.privada@proprietarios.example ou <a href="tel:+5511977771234">(11) 97777-1234</a>.</p><p>CPF do dono 529.982.247-25</p>' +
        '<p>Dona só aceita proposta <b>à vista</b>, não insistir.</p><p>Chaves na portaria com o Sr. Zacarias</p>',
    };
    // The private values as decoding keeps them aside for the mapping.
    const json = serializarDocumento(mapearImovel(ImovelRegistro.parse(payload), { ...contexto, privados: valoresPrivados(payload) }));
    for (const valorPrivado of VALORES_PRIVADOS) {
      expect(json).not.toContain(valorPrivado);
    }
    for (const campoPrivado of ['proprietario', 'corretor', 'observacoes_internas', 'chaves_local', 'valor_minimo_aceito', 'comissao_percentual', 'matricula']) {
      expect(json).not.toContain(`"${campoPrivado}"`);
    }
    expect(json).not.toContain('97777');
  });

  it('is deterministic: the same record gives the identical JSON text', () => {
    const primeira = serializarDocumento(mapearImovel(ImovelRegistro.parse(payloadRegistro()), contexto));
    const segunda = serializarDocumento(mapearImovel(ImovelRegistro.parse(payloadRegistro()), contexto));
    expect(segunda).toBe(primeira);
  });

  it('gives the identical JSON text whatever the order of photos and features in the register', () => {
    const base = registro();
    const embaralhado = registro({ fotos: [...base.fotos].reverse(), caracteristicas: [...base.caracteristicas].reverse() });
    // Reversing changes which spelling of a repeated feature comes first, so compare without the repeat.
    const semRepeticao = (r: typeof base) => ({ ...r, caracteristicas: r.caracteristicas.filter((c) => c !== 'piscina') });
    expect(serializarDocumento(mapearImovel(semRepeticao(embaralhado), contexto))).toBe(
      serializarDocumento(mapearImovel(semRepeticao(base), contexto)),
    );
  });

  it('copies id and codigo and always marks the document as published', () => {
    expect(mapearImovel(registro({ codigo: 'CA99' }), contexto)).toMatchObject({ codigo: 'CA99', publicado: true });
  });

  it('trims tipo and turns an empty one into null', () => {
    expect(mapearImovel(registro({ tipo: '  Casa  ' }), contexto).tipo).toBe('Casa');
    expect(mapearImovel(registro({ tipo: '   ' }), contexto).tipo).toBeNull();
  });

  it('reads a tipo of only invisible characters as empty: null, and the default title without it', () => {
    const documento = mapearImovel(registro({ tipo: ' \u200b\u00ad ', titulo: null }), contexto);
    expect(documento.tipo).toBeNull();
    expect(documento.titulo).toBe('Imóvel AP1234');
    // Visible text keeps what it holds: only trimmed.
    expect(mapearImovel(registro({ tipo: ' Ca\u00adsa ' }), contexto).tipo).toBe('Ca\u00adsa');
  });

  it('copies categoria, finalidade and status only when they are allowed values', () => {
    expect(mapearImovel(registro({ categoria: 'Comercial', finalidade: 'Locação', situacao: 'Reservado' }), contexto)).toMatchObject({
      categoria: 'Comercial',
      finalidade: 'Locação',
      status_comercial: 'Reservado',
    });
    expect(mapearImovel(registro({ categoria: 'residencial', finalidade: 'Aluguel', situacao: 'Vendido' }), contexto)).toMatchObject({
      categoria: null,
      finalidade: null,
      status_comercial: null,
    });
  });

  it('reads an allowed value typed with a combining accent as that value', () => {
    // `Locac\u0327a\u0303o` is `Locação` with its accents as combining marks (Unicode's decomposed form).
    expect(mapearImovel(registro({ finalidade: 'Locac\u0327a\u0303o', situacao: 'Em negociac\u0327a\u0303o' }), contexto)).toMatchObject({
      finalidade: 'Locação',
      status_comercial: 'Em negociação',
    });
  });

  it('treats a lancamento of null as false', () => {
    expect(mapearImovel(registro({ lancamento: null }), contexto).lancamento).toBe(false);
    expect(mapearImovel(registro({ lancamento: true }), contexto).lancamento).toBe(true);
  });

  it('trims the title', () => {
    expect(mapearImovel(registro({ titulo: '  Casa térrea  ' }), contexto).titulo).toBe('Casa térrea');
  });

  it('builds the title from tipo and codigo when it is empty', () => {
    expect(mapearImovel(registro({ titulo: '   ', tipo: ' Casa ' }), contexto).titulo).toBe('Casa AP1234');
    // A lone joiner and variation selector show nothing either.
    expect(mapearImovel(registro({ titulo: '\u200d\ufe0f', tipo: 'Casa' }), contexto).titulo).toBe('Casa AP1234');
  });

  it("builds the title from 'Imóvel' and codigo when both title and tipo are empty", () => {
    expect(mapearImovel(registro({ titulo: null, tipo: null }), contexto).titulo).toBe('Imóvel AP1234');
  });

  it('leaves the default title as built: the code is shown anyway, even when it looks like a telephone', () => {
    expect(mapearImovel(registro({ titulo: '', tipo: null, codigo: '123456789' }), contexto).titulo).toBe('Imóvel 123456789');
    expect(mapearImovel(registro({ titulo: null, tipo: 'Casa', codigo: '' }), contexto).titulo).toBe('Casa');
  });

  it('removes contact details from the title and the description', () => {
    const documento = mapearImovel(
      registro({ titulo: 'Casa R$ 450.000 - tel 11 98765-4321', descricao_html: '<p>E-mail: dono@exemplo.com</p><p>CNPJ 12.345.678/0001-95</p>' }),
      contexto,
    );
    expect(documento.titulo).toBe('Casa R$ 450.000 - tel [removido]');
    expect(documento.descricao).toBe('E-mail: [removido]\n\nCNPJ [removido]');
  });

  it('removes contact details hidden by characters a reader does not see, in the title too', () => {
    const documento = mapearImovel(registro({ titulo: '\u200bCasa, tel 98765\u00ad4321', descricao_html: '<p>Ligue 9876&#8203;5-4321</p>' }), contexto);
    expect(documento.titulo).toBe('Casa, tel [removido]');
    expect(documento.descricao).toBe('Ligue [removido]');
  });

  it('removes contact details typed in styled letters and digits, in the title too', () => {
    const documento = mapearImovel(
      registro({ titulo: '𝐂𝐚𝐬𝐚 𝐧𝐨𝐯𝐚, 𝐭𝐞𝐥 𝟏𝟏 𝟗𝟖𝟕𝟔𝟓-𝟒𝟑𝟐𝟏', descricao_html: '<p>Escreva para ｊｏａｏ＠ｇｍａｉｌ．ｃｏｍ ou ligue ①① ⑨⑧⑦⑥⑤-④③②①</p>' }),
      contexto,
    );
    expect(documento.titulo).toBe('Casa nova, tel [removido]');
    expect(documento.descricao).toBe('Escreva para [removido] ou ligue [removido]');
  });

  it('removes contact details split by other spaces, dashes or dots, in the title too, and sends the common ones instead', () => {
    const privados = { nomes: [], codigos: [], numeros: ['(11) 97777-1234', '529.982.247-25'] };
    const documento = mapearImovel(
      registro({ titulo: 'Dono:\u200997777\u20091234', descricao_html: '<p>CPF do dono 529\u202f982\u202f247\u202f25, fone 97777\u22121234 ou 3333&thinsp;4444</p><p>2\u2009quartos \u2015 120\u202fm²</p>' }),
      { ...contexto, privados },
    );
    expect(documento.titulo).toBe('Dono: [removido]');
    expect(documento.descricao).toBe('CPF do dono [removido], fone [removido] ou [removido]\n\n2 quartos - 120 m²');
  });

  it('removes contact details from tipo and the features too, and from the default title made of that tipo', () => {
    const documento = mapearImovel(
      registro({ tipo: 'Casa - fone 11 98765-4321', titulo: null, caracteristicas: ['Piscina', 'Ligue 98765-4321', 'Whats: corretor@exemplo.com', 'Churrasqueira', 'Ligue 98765-1234'] }),
      contexto,
    );
    expect(documento.tipo).toBe('Casa - fone [removido]');
    expect(documento.titulo).toBe('Casa - fone [removido] AP1234');
    // Two made alike by the removal are one.
    expect(documento.caracteristicas).toEqual(['Churrasqueira', 'Ligue [removido]', 'Piscina', 'Whats: [removido]']);
    // Ordinary values stay exactly as typed, invisible characters and all.
    expect(mapearImovel(registro({ tipo: 'Ca\u00adsa', caracteristicas: ['Área 120 m²', 'Piscina\u00a0aquecida'] }), contexto)).toMatchObject({
      tipo: 'Ca\u00adsa',
      caracteristicas: ['Área 120 m²', 'Piscina aquecida'],
    });
  });

  it('masks the record\'s private values in tipo and the features, which the document of the public fields keeps', () => {
    const privados = { nomes: ['Josefina Albuquerque'], codigos: [], numeros: ['(11) 3333-4444'] };
    const { documento, documentoPublico } = mapearImovelEPublico(
      registro({ tipo: 'Casa da Josefina Albuquerque', titulo: null, caracteristicas: ['Chaves com Josefina Albuquerque', 'Piscina', 'Portaria 3333 4444'] }),
      { ...contexto, privados },
    );
    expect(documento).toMatchObject({ tipo: 'Casa da [removido]', titulo: 'Casa da [removido] AP1234', caracteristicas: ['Chaves com [removido]', 'Piscina', 'Portaria [removido]'] });
    expect(documentoPublico).toMatchObject({ tipo: 'Casa da Josefina Albuquerque', caracteristicas: ['Chaves com Josefina Albuquerque', 'Piscina', 'Portaria [removido]'] });
  });

  describe('the record\'s private values, masked in the text partners read', () => {
    const privados = { nomes: ['Josefina Albuquerque', 'Rui Lima'], codigos: ['CRECI-SP 998877'] };
    const descricao = (html: string) => mapearImovel(registro({ descricao_html: html }), { ...contexto, privados }).descricao;

    it.each([
      // Entities, tags an editor writes (known or not), comments, invisible characters.
      ['Falar com Jose&shy;fina Albu&#8203;querque', 'Falar com [removido]'],
      ['Falar com Josefina Albu<del>querque</del> hoje', 'Falar com [removido] hoje'],
      ['Falar com Josefina Albu<o:p>querque</o:p>', 'Falar com [removido]'],
      ['Falar com Josefin&#x0000000061; Albuquerque', 'Falar com [removido]'],
      ['<!--> Josefina Albuquerque -->', '[removido] -->'],
      ['Josefina <b title=">">Albuquerque</b>', '[removido]'],
      ['<p>Josefina</p><p>Albuquerque</p>', '[removido]'],
      ['<style>.x{} Josefina</style> Albuquerque. <p>Resto: 3 quartos.</p>', 'Albuquerque.\n\nResto: 3 quartos.'],
      ['Corretor Rui <i>Lima</i>, CRECI&nbsp;SP <b>998877</b>.', 'Corretor [removido], [removido].'],
      // Styled letters, as "fancy letter" generators paste them.
      ['Falar com 𝐉𝐨𝐬𝐞𝐟𝐢𝐧𝐚 𝐀𝐥𝐛𝐮𝐪𝐮𝐞𝐫𝐪𝐮𝐞 ou Ｒｕｉ Ｌｉｍａ, ＣＲＥＣＩ-ＳＰ ９９８８７７', 'Falar com [removido] ou [removido], [removido]'],
    ])('%j', (html, esperado) => {
      expect(descricao(html)).toBe(esperado);
    });

    it('in the title too, and not without the values', () => {
      const documento = mapearImovel(registro({ titulo: 'Casa de JOSE\u00adFINA ALBUQUERQUE' }), { ...contexto, privados });
      expect(documento.titulo).toBe('Casa de [removido]');
      expect(mapearImovel(registro({ titulo: 'Casa de Josefina Albuquerque' }), contexto).titulo).toBe('Casa de Josefina Albuquerque');
    });
  });

  it('removes a telephone split by inline HTML tags in the description', () => {
    expect(mapearImovel(registro({ descricao_html: '<p>Ligue (11) <b>98765</b>-4321</p>' }), contexto).descricao).toBe('Ligue [removido]');
  });

  it('turns an empty description into null', () => {
    expect(mapearImovel(registro({ descricao_html: '<p><br></p>' }), contexto).descricao).toBeNull();
    expect(mapearImovel(registro({ descricao_html: null }), contexto).descricao).toBeNull();
  });

  it('hides the street and rounds coordinates when the agency shows only the neighbourhood', () => {
    expect(mapearImovel(comEndereco({ exibicao: 'somente_bairro' }), contexto)).toMatchObject({
      logradouro: null,
      cep: null,
      latitude: -23.59,
      longitude: -46.64,
      exibir_endereco: 'bairro',
    });
  });

  it('upper-cases a lower-case uf and ignores a cep of "abc"', () => {
    expect(mapearImovel(comEndereco({ uf: 'mg', cep: 'abc' }), contexto)).toMatchObject({ uf: 'MG', cep: null });
  });

  it('nulls both prices when the price is on request', () => {
    expect(mapearImovel(comValores({ preco_sob_consulta: true }), contexto)).toMatchObject({
      valor_venda: null,
      valor_aluguel: null,
      ocultar_preco: true,
    });
  });

  it('shows the prices of the validated finalidade only', () => {
    expect(mapearImovel(registro({ finalidade: 'Venda' }), contexto)).toMatchObject({ valor_venda: 950000, valor_aluguel: null });
    expect(mapearImovel(registro({ finalidade: 'Locação' }), contexto)).toMatchObject({ valor_venda: null, valor_aluguel: 4800 });
  });

  it('copies aceita_financiamento and aceita_permuta, null included', () => {
    expect(mapearImovel(registro({ aceita_financiamento: null, aceita_permuta: true }), contexto)).toMatchObject({
      aceita_financiamento: null,
      aceita_permuta: true,
    });
  });

  it('shows mobiliado as Mobiliado, Não or null', () => {
    expect(mapearImovel(registro({ mobiliado: true }), contexto).mobiliado).toBe('Mobiliado');
    expect(mapearImovel(registro({ mobiliado: false }), contexto).mobiliado).toBe('Não');
    expect(mapearImovel(registro({ mobiliado: null }), contexto).mobiliado).toBeNull();
  });

  it('maps dormitorios, suites, banheiros and vagas to quartos, suites, banheiros and vagas, keeping 0', () => {
    expect(mapearImovel(registro({ dormitorios: 0, suites: 0, banheiros: 1, vagas: 0 }), contexto)).toMatchObject({
      quartos: 0,
      suites: 0,
      banheiros: 1,
      vagas: 0,
    });
  });

  it('turns a negative vagas and other negative or non-integer counts into null', () => {
    expect(mapearImovel(registro({ dormitorios: 2.5, suites: -1, banheiros: Number.POSITIVE_INFINITY, vagas: -1 }), contexto)).toMatchObject({
      quartos: null,
      suites: null,
      banheiros: null,
      vagas: null,
    });
  });

  it('turns a count past the safe integers into null: it is not exact, and partners could not read it', () => {
    expect(mapearImovel(registro({ dormitorios: 1e308, suites: 2 ** 53, banheiros: 2 ** 53 - 1 }), contexto)).toMatchObject({
      quartos: null,
      suites: null,
      banheiros: 2 ** 53 - 1,
    });
  });

  it('turns negative or non-finite areas into null and keeps fractional ones', () => {
    expect(mapearImovel(registro({ area_util_m2: -50, area_total_m2: Number.NaN }), contexto)).toMatchObject({ area_util: null, area_total: null });
    expect(mapearImovel(registro({ area_util_m2: 72.35, area_total_m2: 0 }), contexto)).toMatchObject({ area_util: 72.35, area_total: 0 });
  });

  it('copies the condominium name it is given, or null', () => {
    expect(mapearImovel(registro(), { ...contexto, nomeCondominio: null }).nome_condominio).toBeNull();
    expect(mapearImovel(registro(), { ...contexto, nomeCondominio: 'Solar das Flores' }).nome_condominio).toBe('Solar das Flores');
  });

  it('drops an http tour link', () => {
    expect(mapearImovel(registro({ tour_virtual_url: 'http://tour.exemplo.com.br/AP1234' }), contexto).tour_virtual_url).toBeNull();
  });

  it('normalises criado_em to UTC with milliseconds', () => {
    expect(mapearImovel(registro({ criado_em: '2025-12-31T23:59:59-03:00' }), contexto).criado_em).toBe('2026-01-01T02:59:59.000Z');
    expect(mapearImovel(registro({ criado_em: '2025-06-01T12:00:00.5+02:00' }), contexto).criado_em).toBe('2025-06-01T10:00:00.500Z');
    expect(mapearImovel(registro({ criado_em: null }), contexto).criado_em).toBeNull();
  });

  it('reads a criado_em whose instant has no four-digit year in UTC as not informed', () => {
    expect(mapearImovel(registro({ criado_em: '9999-12-31T23:59:59-03:00' }), contexto).criado_em).toBeNull();
    expect(mapearImovel(registro({ criado_em: '0000-01-01T00:00:00+01:00' }), contexto).criado_em).toBeNull();
    expect(mapearImovel(registro({ criado_em: '0000-01-01T00:00:00Z' }), contexto).criado_em).toBe('0000-01-01T00:00:00.000Z');
  });
});
