// Shapes the generator produces: the register's full aggregates, private fields included (the
// contracts schema leaves those out on purpose). Its output records are the contracts' RegistroBruto.
import type { EventoRegistroEntrada } from '@imoveis/contracts';

export type ImovelSalvoEntrada = Extract<EventoRegistroEntrada, { tipo: 'imovel.salvo' }>;
export type ImovelExcluidoEntrada = Extract<EventoRegistroEntrada, { tipo: 'imovel.excluido' }>;
export type CondominioSalvoEntrada = Extract<EventoRegistroEntrada, { tipo: 'condominio.salvo' }>;
export type CondominioExcluidoEntrada = Extract<EventoRegistroEntrada, { tipo: 'condominio.excluido' }>;

export interface Contato {
  nome: string;
  telefone: string;
  email: string;
}

export interface Proprietario extends Contato {
  cpf: string;
}

export interface Corretor extends Contato {
  creci: string;
}

export interface FotoGerada {
  arquivo: string;
  ordem: number;
  principal: boolean;
  publica: boolean;
  alterada_em: string | null;
}

export interface EnderecoGerado {
  logradouro: string | null;
  numero: string | null;
  /** `undefined` leaves the key out of the JSON, as the register sometimes does. */
  complemento: string | null | undefined;
  bairro: string | null;
  cidade: string | null;
  uf: string | null;
  cep: string | null;
  latitude: number | null;
  longitude: number | null;
  exibicao: string;
}

export interface ValoresGerados {
  venda: number | null;
  aluguel: number | null;
  condominio: number | null;
  iptu: number | null;
  iptu_periodicidade: string | null;
  preco_sob_consulta: boolean;
}

/**
 * `dados` of `imovel.salvo` exactly as the register sends it. Every key is always assigned (in
 * the contract's order) so all objects share one hidden class and JSON.stringify stays fast.
 */
export interface ImovelCompleto {
  id: string;
  codigo: string;
  ativo: boolean;
  publicar_no_site: boolean;
  situacao: string | null;
  tipo: string | null;
  categoria: string | null;
  finalidade: string | null;
  lancamento: boolean | null | undefined;
  titulo: string | null;
  descricao_html: string | null;
  endereco: EnderecoGerado;
  valores: ValoresGerados;
  aceita_financiamento: boolean | null;
  aceita_permuta: boolean | null;
  mobiliado: boolean | null;
  dormitorios: number | null;
  suites: number | null;
  banheiros: number | null;
  vagas: number | null;
  area_util_m2: number | null;
  area_total_m2: number | null;
  condominio_id: string | null;
  caracteristicas: string[];
  fotos: FotoGerada[];
  video_url: string | null;
  tour_virtual_url: string | null;
  criado_em: string | null;
  // Private fields: present in every generated event, as in the real register.
  proprietario: Proprietario;
  corretor: Corretor;
  observacoes_internas: string;
  chaves_local: string;
  valor_minimo_aceito: number;
  comissao_percentual: number;
  matricula: string;
}

export interface CondominioCompleto {
  id: string;
  nome: string;
  administradora: string | null;
  /** Private. */
  sindico: Contato | null;
}

/** The register's private fields of a property, as their names (for tests and checks). */
export const CAMPOS_PRIVADOS_IMOVEL = [
  'proprietario',
  'corretor',
  'observacoes_internas',
  'chaves_local',
  'valor_minimo_aceito',
  'comissao_percentual',
  'matricula',
] as const;
