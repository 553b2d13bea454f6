// Public API of the register → partner mapping: the whole document, and what the projection
// needs of it. Each rule's own function is tested where it lives.
export { mapearImovel, mapearImovelEPublico, type ContextoMapeamento } from './imovel-mapper.ts';
export { estaAnunciado } from './anunciado.ts';
export { serializarDocumento, comNomeCondominio } from './documento-json.ts';
export { VERSAO_DAS_REGRAS } from './versao-das-regras.ts';
