// Public API of the register → partner mapping.
export { mapearImovel, type ContextoMapeamento } from './imovel-mapper.ts';
export { estaAnunciado } from './anunciado.ts';
export { serializarDocumento, comNomeCondominio } from './documento-json.ts';
export { htmlParaTexto, removerContatos } from './texto.ts';
export { mapearEndereco, exibirEndereco, uf, cep, coordenadas, UFS, type EnderecoParceiro, type ExibirEndereco } from './endereco.ts';
export { mapearValores, periodicidadeIptu, type ValoresParceiro } from './valores.ts';
export { mapearFotos, urlDaFoto } from './fotos.ts';
export { urlVideo } from './video.ts';
export { urlTourVirtual } from './tour-virtual.ts';
export { mapearCaracteristicas } from './caracteristicas.ts';
export { contagem, naoNegativo } from './numeros.ts';
export { VERSAO_DAS_REGRAS } from './versao-das-regras.ts';
