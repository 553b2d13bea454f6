// Register change events (register-events.md, contract v1): what arrives on the Kafka topics.
// Private fields of the register (owner, agent, internal notes…) are deliberately not declared:
// zod strips undeclared keys, so they never enter the projector's objects, logs or documents.
// The few read are read from the raw record, to be masked in the free text (decode.ts).
import { z } from 'zod';
import { paraRfc3339, semHora24NemSegundo60 } from './data-hora.ts';
import { dataHoraComFuso, uuidMinusculo } from './formatos.ts';

/** Any JSON number, finite or not: wrong values are corrected by the mapping, not rejected. */
const numero = z.custom<number>((v) => typeof v === 'number', { message: 'esperado um número' });
/** A nullable field the register may also leave out; both mean "not informed". */
const opcional = <T extends z.ZodType>(schema: T) => schema.nullable().default(null);
/**
 * A register's date-time in RFC 3339: other ISO 8601 forms rewritten into it, and the day's end
 * (`24:00`) and a leap second (second 60) as the instants they name, which the RFC 3339 check
 * would refuse.
 */
const comoRfc3339 = (texto: string): string => semHora24NemSegundo60(paraRfc3339(texto));

/**
 * A date-time field of the aggregate ({@link comoRfc3339}). A text that is no date-time with an
 * offset is a wrong value inside a valid event, read as not informed (null); a value that is no
 * text breaks the contract.
 */
const dataHoraDoRegistro = opcional(
  z.union([
    dataHoraComFuso,
    z.string().transform((texto) => {
      const rfc3339 = comoRfc3339(texto);
      return dataHoraComFuso.safeParse(rfc3339).success ? rfc3339 : null;
    }),
  ]),
);

/**
 * The condominium a property points to. A text that is no uuid (`""`, `N/A`) points to none: a
 * wrong value inside a valid event, read as not informed (`nome_condominio` null); a value that
 * is no text breaks the contract.
 */
const condominioApontado = opcional(z.union([uuidMinusculo(), z.string().transform(() => null)]));

export const Endereco = z.object({
  logradouro: opcional(z.string()),
  numero: opcional(z.string()),
  complemento: opcional(z.string()),
  bairro: opcional(z.string()),
  cidade: opcional(z.string()),
  uf: opcional(z.string()),
  cep: opcional(z.string()),
  latitude: opcional(numero),
  longitude: opcional(numero),
  /** `completo` or `somente_bairro`; anything else is treated as `somente_bairro` (privacy first). */
  exibicao: z.string(),
});
export type Endereco = z.infer<typeof Endereco>;

export const Valores = z.object({
  venda: opcional(numero),
  aluguel: opcional(numero),
  condominio: opcional(numero),
  iptu: opcional(numero),
  iptu_periodicidade: opcional(z.string()),
  preco_sob_consulta: z.boolean(),
});
export type Valores = z.infer<typeof Valores>;

export const FotoRegistro = z.object({
  // An empty key is a wrong value inside a valid event: the photo is left out (domain's fotos.ts).
  arquivo: z.string(),
  // An order too large for a double (`1e400`) is a wrong value too: it sorts last.
  ordem: numero,
  principal: z.boolean(),
  publica: z.boolean(),
  alterada_em: dataHoraDoRegistro,
});
export type FotoRegistro = z.infer<typeof FotoRegistro>;

/** `dados` of `imovel.salvo`, without the private fields. */
export const ImovelRegistro = z.object({
  id: uuidMinusculo(),
  codigo: z.string(),
  ativo: z.boolean(),
  publicar_no_site: z.boolean(),
  situacao: opcional(z.string()),
  tipo: opcional(z.string()),
  categoria: opcional(z.string()),
  finalidade: opcional(z.string()),
  lancamento: opcional(z.boolean()),
  titulo: opcional(z.string()),
  descricao_html: opcional(z.string()),
  endereco: Endereco,
  valores: Valores,
  aceita_financiamento: opcional(z.boolean()),
  aceita_permuta: opcional(z.boolean()),
  mobiliado: opcional(z.boolean()),
  dormitorios: opcional(numero),
  suites: opcional(numero),
  banheiros: opcional(numero),
  vagas: opcional(numero),
  area_util_m2: opcional(numero),
  area_total_m2: opcional(numero),
  condominio_id: condominioApontado,
  caracteristicas: z.array(z.string()),
  fotos: z.array(FotoRegistro),
  video_url: opcional(z.string()),
  tour_virtual_url: opcional(z.string()),
  criado_em: dataHoraDoRegistro,
});
export type ImovelRegistro = z.infer<typeof ImovelRegistro>;

export const CondominioRegistro = z.object({
  id: uuidMinusculo(),
  nome: z.string(),
  administradora: opcional(z.string()),
});
export type CondominioRegistro = z.infer<typeof CondominioRegistro>;

/** The envelope's `versao_schema` this code reads; any other goes to the dead letters as unknown. */
export const VERSAO_SCHEMA = 1;

const envelope = {
  evento_id: z.guid(),
  versao_schema: z.literal(VERSAO_SCHEMA),
  /** Any ISO 8601 form with an offset (`t`/`z` in lower case too, as RFC 3339 allows), rewritten into RFC 3339. */
  ocorrido_em: z.string().transform(comoRfc3339).pipe(dataHoraComFuso),
  versao: z.int().min(1),
};

export const ImovelSalvo = z.object({ ...envelope, tipo: z.literal('imovel.salvo'), dados: ImovelRegistro });
export const ImovelExcluido = z.object({
  ...envelope,
  tipo: z.literal('imovel.excluido'),
  dados: z.object({ id: uuidMinusculo(), codigo: z.string() }),
});
export const CondominioSalvo = z.object({ ...envelope, tipo: z.literal('condominio.salvo'), dados: CondominioRegistro });
export const CondominioExcluido = z.object({
  ...envelope,
  tipo: z.literal('condominio.excluido'),
  dados: z.object({ id: uuidMinusculo() }),
});

export const EventoImovel = z.discriminatedUnion('tipo', [ImovelSalvo, ImovelExcluido]);
export const EventoCondominio = z.discriminatedUnion('tipo', [CondominioSalvo, CondominioExcluido]);
export const EventoRegistro = z.discriminatedUnion('tipo', [ImovelSalvo, ImovelExcluido, CondominioSalvo, CondominioExcluido]);

export type ImovelSalvo = z.infer<typeof ImovelSalvo>;
export type ImovelExcluido = z.infer<typeof ImovelExcluido>;
export type CondominioSalvo = z.infer<typeof CondominioSalvo>;
export type CondominioExcluido = z.infer<typeof CondominioExcluido>;
export type EventoImovel = z.infer<typeof EventoImovel>;
export type EventoCondominio = z.infer<typeof EventoCondominio>;
export type EventoRegistro = z.infer<typeof EventoRegistro>;
/** What a producer writes (defaults not yet applied, so optional fields may be left out). */
export type EventoRegistroEntrada = z.input<typeof EventoRegistro>;

export type TipoEvento = EventoRegistro['tipo'];
/** Every event type the contract knows, read from the schemas. */
export const TIPOS_EVENTO: ReadonlySet<string> = new Set<TipoEvento>(EventoRegistro.options.map((evento) => evento.shape.tipo.value));
