// Test fixtures: a realistic register payload (private fields included) parsed like the projector parses it.
import { ImovelRegistro, type Endereco, type FotoRegistro, type Valores } from '@imoveis/contracts';

export const FOTOS_BASE_URL = 'https://fotos.exemplo.com.br/marca-dagua';

/** Distinctive private values: a test asserts none of them reaches the partner document. */
export const VALORES_PRIVADOS = [
  'Josefina Privada Albuquerque',
  '529.982.247-25',
  'josefina.privada@proprietarios.example',
  '(11) 97777-1234',
  'Corretor Reservado Quintanilha',
  'CRECI-SP 998877',
  'corretor.reservado@imobiliaria.example',
  '(11) 96666-4321',
  'Dona só aceita proposta à vista, não insistir',
  'Chaves na portaria com o Sr. Zacarias',
  '871234',
  '3.75',
  'MAT-55443-2RI',
] as const;

/** The register's `dados` of `imovel.salvo`, as it arrives on Kafka. */
export function payloadRegistro(): Record<string, unknown> {
  return {
    id: '3f0c6a52-7b1e-4e8a-9d2f-5a1b2c3d4e5f',
    codigo: 'AP1234',
    ativo: true,
    publicar_no_site: true,
    situacao: 'Disponível',
    tipo: 'Apartamento',
    categoria: 'Residencial',
    finalidade: 'Venda e Locação',
    lancamento: false,
    titulo: 'Apartamento com vista para o parque',
    descricao_html:
      '<p>Lindo apartamento de <strong>120 m²</strong>, reformado em 2024.</p><ul><li>Varanda gourmet</li><li>Piscina &amp; academia</li></ul>',
    endereco: {
      logradouro: 'Rua das Acácias',
      numero: '1500',
      complemento: 'Apto 82',
      bairro: 'Vila Mariana',
      cidade: 'São Paulo',
      uf: 'SP',
      cep: '04101-000',
      latitude: -23.587416,
      longitude: -46.638297,
      exibicao: 'completo',
    },
    valores: {
      venda: 950000,
      aluguel: 4800,
      condominio: 1200.5,
      iptu: 3600,
      iptu_periodicidade: 'anual',
      preco_sob_consulta: false,
    },
    aceita_financiamento: true,
    aceita_permuta: false,
    mobiliado: true,
    dormitorios: 3,
    suites: 1,
    banheiros: 2,
    vagas: 2,
    area_util_m2: 120,
    area_total_m2: 145.3,
    condominio_id: '9b2d7c1e-0f3a-4c5b-8d6e-7f8091a2b3c4',
    caracteristicas: ['Piscina', ' varanda  gourmet ', 'Academia', 'piscina'],
    fotos: [
      { arquivo: 'imoveis/AP1234/02.jpg', ordem: 2, principal: false, publica: true, alterada_em: null },
      { arquivo: 'imoveis/AP1234/01.jpg', ordem: 1, principal: true, publica: true, alterada_em: '2026-11-20T10:00:00.000-03:00' },
      { arquivo: 'imoveis/AP1234/escritura.jpg', ordem: 3, principal: false, publica: false, alterada_em: null },
    ],
    video_url: 'https://youtu.be/dQw4w9WgXcQ',
    tour_virtual_url: 'https://tour.exemplo.com.br/AP1234',
    criado_em: '2025-03-02T08:15:30-03:00',
    proprietario: {
      nome: 'Josefina Privada Albuquerque',
      cpf: '529.982.247-25',
      telefone: '(11) 97777-1234',
      email: 'josefina.privada@proprietarios.example',
    },
    corretor: {
      nome: 'Corretor Reservado Quintanilha',
      creci: 'CRECI-SP 998877',
      telefone: '(11) 96666-4321',
      email: 'corretor.reservado@imobiliaria.example',
    },
    observacoes_internas: 'Dona só aceita proposta à vista, não insistir',
    chaves_local: 'Chaves na portaria com o Sr. Zacarias',
    valor_minimo_aceito: 871234,
    comissao_percentual: 3.75,
    matricula: 'MAT-55443-2RI',
  };
}

export function registro(alteracoes: Partial<ImovelRegistro> = {}): ImovelRegistro {
  return { ...ImovelRegistro.parse(payloadRegistro()), ...alteracoes };
}

export function comEndereco(alteracoes: Partial<Endereco>): ImovelRegistro {
  const base = registro();
  return { ...base, endereco: { ...base.endereco, ...alteracoes } };
}

export function comValores(alteracoes: Partial<Valores>): ImovelRegistro {
  const base = registro();
  return { ...base, valores: { ...base.valores, ...alteracoes } };
}

export function foto(alteracoes: Partial<FotoRegistro> = {}): FotoRegistro {
  return { arquivo: 'imoveis/AP1234/01.jpg', ordem: 1, principal: false, publica: true, alterada_em: null, ...alteracoes };
}
