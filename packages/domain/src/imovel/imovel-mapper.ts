// The register → partner mapping of one property (register-events.md, "From the register to the partner document").
import {
  CATEGORIAS,
  FINALIDADES,
  MOBILIADO,
  STATUS_COMERCIAIS,
  type DocumentoImovel,
  type ImovelRegistro,
  type ValoresPrivados,
} from '@imoveis/contracts';
import { mapearCaracteristicas } from './caracteristicas.ts';
import { mapearEndereco } from './endereco.ts';
import { mapearFotos } from './fotos.ts';
import { contagem, naoNegativo } from './numeros.ts';
import { umDosPermitidos } from './permitidos.ts';
import { removerContatos } from './contatos.ts';
import { mascaraDePrivados } from './mascara-de-privados.ts';
import { aparado, comoSeLe, htmlParaTexto } from './texto.ts';
import { urlTourVirtual } from './tour-virtual.ts';
import { mapearValores } from './valores.ts';
import { urlVideo } from './video.ts';

export interface ContextoMapeamento {
  /** Name of the condominium `condominio_id` points to, once known. */
  nomeCondominio: string | null;
  /** Public (watermarking) base address photos are served from. */
  fotosBaseUrl: string;
  /**
   * The record's private values (decoding keeps them beside the event), masked in `titulo`,
   * `descricao`, `tipo` and the features as partners read them. Only the projector's preparing step has them.
   */
  privados?: ValoresPrivados;
}

function mobiliado(valor: boolean | null): (typeof MOBILIADO)[number] | null {
  if (valor === null) return null;
  const [sim, nao] = MOBILIADO;
  return valor ? sim : nao;
}

/** The agent's title scrubbed of contacts; null when none was typed. */
function tituloDigitado(valor: string | null): string | null {
  const digitado = aparado(valor === null ? null : comoSeLe(valor));
  return digitado === null ? null : removerContatos(digitado);
}

/** Short free text as sent, by the value typed: features recur from property to property. */
const SEM_CONTATOS = new Map<string, string>();
const MAXIMO_SEM_CONTATOS = 10_000;

/**
 * A short free-text value (`tipo`, a feature) as typed, unless a contact reads in it: then as
 * read, with it removed (`Ligue [removido]`). The contract names `titulo` and `descricao`, but a
 * telephone typed into a feature reaches partners the same.
 */
function curtoSemContatos(valor: string): string {
  let limpo = SEM_CONTATOS.get(valor);
  if (limpo === undefined) {
    const lido = comoSeLe(valor);
    const semContatos = removerContatos(lido);
    limpo = semContatos === lido ? valor : semContatos;
    if (SEM_CONTATOS.size >= MAXIMO_SEM_CONTATOS) SEM_CONTATOS.clear();
    SEM_CONTATOS.set(valor, limpo);
  }
  return limpo;
}
/** Likewise with the record's private values (`mascarar`): "no private field may ever reach a partner response". */
function curtoSemPrivados(valor: string, mascarar: (texto: string) => string): string {
  const lido = comoSeLe(valor);
  const mascarado = mascarar(lido);
  return mascarado === lido ? valor : mascarado;
}

/** Each feature cleaned; two made alike by what was removed are one, tidied and sorted again. */
function cadaCaracteristica(caracteristicas: string[], limpar: (caracteristica: string) => string): string[] {
  const limpas = caracteristicas.map(limpar);
  return limpas.every((c, i) => c === caracteristicas[i]) ? caracteristicas : mapearCaracteristicas(limpas);
}

/**
 * `tipo` and the features with the record's private values masked. Nearly always none is there:
 * they are looked through at once, a NUL apart (which parts every word), and one by one only when
 * something was found (a mask looked for costs about as much in a short text as in a long one).
 */
function curtosSemPrivados(tipo: string | null, caracteristicas: string[], mascarar: (texto: string) => string) {
  const lidos = comoSeLe([tipo ?? '', ...caracteristicas].join('\0'));
  if (mascarar(lidos) === lidos) return { tipo, caracteristicas };
  return {
    tipo: tipo === null ? null : curtoSemPrivados(tipo, mascarar),
    caracteristicas: cadaCaracteristica(caracteristicas, (c) => curtoSemPrivados(c, mascarar)),
  };
}

/** The title when none was typed: the type and the code, both shown in their own fields anyway. */
const tituloPadrao = (tipo: string | null, codigo: string): string => `${tipo ?? 'Imóvel'} ${codigo}`.trim();

/**
 * A register date-time as partners read them (UTC, milliseconds); `null` when the instant falls
 * outside the years 0000–9999 in UTC (`9999-12-31T23:59:59-03:00`), which that form cannot hold.
 */
function emUtc(dataHora: string | null): string | null {
  if (dataHora === null) return null;
  const iso = new Date(dataHora).toISOString();
  return iso.length === 'AAAA-MM-DDTHH:MM:SS.mmmZ'.length ? iso : null;
}

/** The description as plain text, scrubbed of contacts by their shape. */
function descricao(html: string | null): string | null {
  const texto = htmlParaTexto(html);
  return texto === null ? null : removerContatos(texto);
}

/**
 * The document, and the document the public fields alone give: the same but for `tipo`, `titulo`,
 * `descricao` and the features before the record's private values are masked in them. The
 * projector keeps a digest of the latter, so an edit of private fields only leaves the document as
 * partners have it (register-events.md), even where the values masked in its text changed.
 */
export interface Mapeamento {
  documento: DocumentoImovel;
  /** The very object `documento` is when no private value was masked (most properties). */
  documentoPublico: DocumentoImovel;
}

/**
 * The partner document of a property, without `atualizado_em` (the projector's commit instant).
 * The literal's key order is the `Imovel` schema's: the stored JSON text is compared byte for byte.
 */
export function mapearImovel(registro: ImovelRegistro, contexto: ContextoMapeamento): DocumentoImovel {
  return mapearImovelEPublico(registro, contexto).documento;
}

/** The document and what the public fields alone give ({@link Mapeamento}). */
export function mapearImovelEPublico(registro: ImovelRegistro, contexto: ContextoMapeamento): Mapeamento {
  const tipoDigitado = aparado(registro.tipo);
  const tipo = tipoDigitado === null ? null : curtoSemContatos(tipoDigitado);
  const finalidade = umDosPermitidos(FINALIDADES, registro.finalidade);
  const endereco = mapearEndereco(registro.endereco);
  const valores = mapearValores(registro.valores, finalidade);
  const digitado = tituloDigitado(registro.titulo);
  const documentoPublico: DocumentoImovel = {
    id: registro.id,
    codigo: registro.codigo,
    publicado: true,
    tipo,
    categoria: umDosPermitidos(CATEGORIAS, registro.categoria),
    finalidade,
    status_comercial: umDosPermitidos(STATUS_COMERCIAIS, registro.situacao),
    lancamento: registro.lancamento ?? false,
    titulo: digitado ?? tituloPadrao(tipo, registro.codigo),
    descricao: descricao(registro.descricao_html),
    logradouro: endereco.logradouro,
    numero: endereco.numero,
    complemento: endereco.complemento,
    bairro: endereco.bairro,
    cidade: endereco.cidade,
    uf: endereco.uf,
    cep: endereco.cep,
    latitude: endereco.latitude,
    longitude: endereco.longitude,
    exibir_endereco: endereco.exibir_endereco,
    valor_venda: valores.valor_venda,
    valor_aluguel: valores.valor_aluguel,
    valor_condominio: valores.valor_condominio,
    valor_iptu: valores.valor_iptu,
    periodicidade_iptu: valores.periodicidade_iptu,
    ocultar_preco: valores.ocultar_preco,
    aceita_financiamento: registro.aceita_financiamento,
    aceita_permuta: registro.aceita_permuta,
    mobiliado: mobiliado(registro.mobiliado),
    quartos: contagem(registro.dormitorios),
    suites: contagem(registro.suites),
    banheiros: contagem(registro.banheiros),
    vagas: contagem(registro.vagas),
    area_util: naoNegativo(registro.area_util_m2),
    area_total: naoNegativo(registro.area_total_m2),
    nome_condominio: contexto.nomeCondominio,
    caracteristicas: cadaCaracteristica(mapearCaracteristicas(registro.caracteristicas), curtoSemContatos),
    fotos: mapearFotos(registro.fotos, contexto.fotosBaseUrl),
    video_url: urlVideo(registro.video_url),
    tour_virtual_url: urlTourVirtual(registro.tour_virtual_url),
    criado_em: emUtc(registro.criado_em),
  };
  if (contexto.privados === undefined) return { documento: documentoPublico, documentoPublico };
  // Contacts by their shape first (a telephone with its area code goes whole), then what is left
  // of the record's own private values, typed in a shape the patterns do not know. The default
  // title is made of the masked type.
  const semPrivados = mascaraDePrivados(contexto.privados);
  const curtos = curtosSemPrivados(tipo, documentoPublico.caracteristicas, semPrivados);
  const titulo = digitado === null ? tituloPadrao(curtos.tipo, registro.codigo) : semPrivados(digitado);
  const descricaoMascarada = documentoPublico.descricao === null ? null : semPrivados(documentoPublico.descricao);
  const intocado =
    curtos.tipo === documentoPublico.tipo &&
    curtos.caracteristicas === documentoPublico.caracteristicas &&
    titulo === documentoPublico.titulo &&
    descricaoMascarada === documentoPublico.descricao;
  if (intocado) return { documento: documentoPublico, documentoPublico };
  const documento = { ...documentoPublico, tipo: curtos.tipo, titulo, descricao: descricaoMascarada, caracteristicas: curtos.caracteristicas };
  return { documento, documentoPublico };
}
