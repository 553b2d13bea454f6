// The stored JSON text of a partner document: compared byte for byte to detect a relevant change.
import type { DocumentoImovel } from '@imoveis/contracts';

/** Key order comes from `mapearImovel`'s object literal, so equal documents give equal text. */
export function serializarDocumento(doc: DocumentoImovel): string {
  return JSON.stringify(doc);
}

/**
 * A stored document with the condominium's new name, for a rename that arrives without a new
 * property event. Assigning an existing key keeps its position, so the text stays comparable.
 */
export function comNomeCondominio(documentoJson: string, nome: string | null): string {
  const documento: unknown = JSON.parse(documentoJson);
  if (typeof documento !== 'object' || documento === null || Array.isArray(documento) || !Object.hasOwn(documento, 'nome_condominio')) {
    // Appending the key would move it to the end and change the text of an otherwise equal document.
    throw new TypeError('documento de imóvel sem o campo nome_condominio');
  }
  return JSON.stringify({ ...documento, nome_condominio: nome });
}
