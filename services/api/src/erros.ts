// The closed set of failures the API answers with, each with its status and partner message.
// The error handler tells them apart by `code`, never by message.

export type CodigoErro =
  | 'PARAMETRO_INVALIDO'
  | 'HOST_AUSENTE'
  | 'NAO_AUTENTICADO'
  | 'IMOVEL_NAO_ENCONTRADO'
  | 'ROTA_NAO_ENCONTRADA'
  | 'METODO_NAO_PERMITIDO'
  | 'FORMATO_NAO_ACEITAVEL'
  | 'LIMITE_EXCEDIDO'
  | 'SERVICO_SOBRECARREGADO'
  | 'PROJECAO_INDISPONIVEL';

/** Base of the API's own failures: a code, an HTTP status and a message safe to show partners. */
export abstract class ErroApi extends Error {
  abstract readonly code: CodigoErro;
  abstract readonly statusCode: number;
  /** Response headers the failure needs (Retry-After, Allow, WWW-Authenticate). */
  readonly cabecalhos: Readonly<Record<string, string>>;
  constructor(mensagem: string, cabecalhos: Record<string, string> = {}, opcoes?: ErrorOptions) {
    super(mensagem, opcoes);
    this.cabecalhos = cabecalhos;
  }
}

export class ParametroInvalido extends ErroApi {
  override readonly name = 'ParametroInvalido';
  readonly code = 'PARAMETRO_INVALIDO';
  readonly statusCode = 400;
}

/** An HTTP/1.1 request without `Host` (RFC 9112, 3.2), which Node would answer with an empty 400. */
export class HostAusente extends ErroApi {
  override readonly name = 'HostAusente';
  readonly code = 'HOST_AUSENTE';
  readonly statusCode = 400;
  constructor() {
    super('cabeçalho Host ausente: o HTTP/1.1 o exige');
  }
}

/** Why a request was not authenticated; only logged, the partner sees one message per case. */
export type MotivoNaoAutenticado = 'ausente' | 'malformada' | 'repetida' | 'desconhecida' | 'revogada' | 'na-url';

const MENSAGENS_401: Record<MotivoNaoAutenticado, string> = {
  ausente: "credencial ausente: envie o cabeçalho 'Authorization: Bearer <token>'",
  malformada: "cabeçalho Authorization malformado: use 'Bearer', um espaço e o token",
  repetida: 'cabeçalho Authorization repetido: envie um só',
  desconhecida: 'credencial inválida',
  revogada: 'credencial revogada',
  'na-url': 'o token não pode ser enviado na URL; use o cabeçalho Authorization',
};

export class NaoAutenticado extends ErroApi {
  override readonly name = 'NaoAutenticado';
  readonly code = 'NAO_AUTENTICADO';
  readonly statusCode = 401;
  readonly motivo: MotivoNaoAutenticado;
  constructor(motivo: MotivoNaoAutenticado) {
    // RFC 6750 §3: a 401 for a bearer-protected resource names the scheme.
    const desafio = motivo === 'ausente' ? 'Bearer realm="imoveis"' : 'Bearer realm="imoveis", error="invalid_token"';
    super(MENSAGENS_401[motivo], { 'WWW-Authenticate': desafio });
    this.motivo = motivo;
  }
}

export class ImovelNaoEncontrado extends ErroApi {
  override readonly name = 'ImovelNaoEncontrado';
  readonly code = 'IMOVEL_NAO_ENCONTRADO';
  readonly statusCode = 404;
  constructor() {
    super('imóvel não encontrado ou não anunciado');
  }
}

export class RotaNaoEncontrada extends ErroApi {
  override readonly name = 'RotaNaoEncontrada';
  readonly code = 'ROTA_NAO_ENCONTRADA';
  readonly statusCode = 404;
  constructor(metodo: string, caminho: string) {
    super(`rota não encontrada: ${metodo} ${caminho}`);
  }
}

export class MetodoNaoPermitido extends ErroApi {
  override readonly name = 'MetodoNaoPermitido';
  readonly code = 'METODO_NAO_PERMITIDO';
  readonly statusCode = 405;
  constructor(metodo: string) {
    super(`método ${metodo} não permitido: a interface é somente leitura (GET)`, { Allow: 'GET' });
  }
}

export class FormatoNaoAceitavel extends ErroApi {
  override readonly name = 'FormatoNaoAceitavel';
  readonly code = 'FORMATO_NAO_ACEITAVEL';
  readonly statusCode = 406;
  constructor() {
    super('a resposta só existe em application/json; ajuste o cabeçalho Accept');
  }
}

export class LimiteExcedido extends ErroApi {
  override readonly name = 'LimiteExcedido';
  readonly code = 'LIMITE_EXCEDIDO';
  readonly statusCode = 429;
  constructor(limite: number, retryAfterS: number) {
    super(`limite de ${limite} requisições por minuto excedido; tente novamente em ${retryAfterS} s`, { 'Retry-After': String(retryAfterS) });
  }
}

export class ServicoSobrecarregado extends ErroApi {
  override readonly name = 'ServicoSobrecarregado';
  readonly code = 'SERVICO_SOBRECARREGADO';
  readonly statusCode = 503;
  constructor() {
    super('serviço sobrecarregado no momento; tente novamente em instantes', { 'Retry-After': '5' });
  }
}

/**
 * The projection is not there yet: the contract's "temporary failure; try again", a 500 where the
 * contract documents one (`/imoveis`). The other operations list no 500, and answer 503 (with
 * Retry-After, as under overload): `naOperacaoSem500`.
 */
export class ProjecaoIndisponivel extends ErroApi {
  override readonly name = 'ProjecaoIndisponivel';
  readonly code = 'PROJECAO_INDISPONIVEL';
  readonly statusCode: 500 | 503;
  constructor(opcoes?: ErrorOptions & { statusCode?: 500 | 503 }) {
    super('serviço temporariamente indisponível; tente novamente', { 'Retry-After': '5' }, opcoes);
    this.statusCode = opcoes?.statusCode ?? 500;
  }

  naOperacaoSem500(): ProjecaoIndisponivel {
    return new ProjecaoIndisponivel({ cause: this.cause, statusCode: 503 });
  }
}
