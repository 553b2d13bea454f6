// The stored JSON text of a partner document: compared byte for byte to detect a relevant change.
import type { DocumentoImovel } from '@imoveis/contracts';

/** Key order comes from `mapearImovel`'s object literal, so equal documents give equal text. */
export function serializarDocumento(doc: DocumentoImovel): string {
  return JSON.stringify(doc);
}

const CAMPO_CONDOMINIO = '"nome_condominio":';

/**
 * A stored document with the condominium's new name, for a rename that arrives without a new
 * property event (and for documents mapped before the name was known). Only the value's text
 * is replaced, so the rest stays byte for byte what it was, at the cost of a string splice.
 */
export function comNomeCondominio(documentoJson: string, nome: string | null): string {
  // Outside strings a `"` only opens or closes one and inside them it is escaped (`\"`), so the
  // first `"nome_condominio":` is the field itself: no nested object of a document has that key.
  const chave = documentoJson.indexOf(CAMPO_CONDOMINIO);
  if (chave < 0) throw new TypeError('documento de imóvel sem o campo nome_condominio');
  const inicio = chave + CAMPO_CONDOMINIO.length;
  return documentoJson.slice(0, inicio) + JSON.stringify(nome) + documentoJson.slice(fimDoValor(documentoJson, inicio));
}

/** Where the value (`null` or a string) starting at `inicio` ends. */
function fimDoValor(json: string, inicio: number): number {
  if (json.startsWith('null', inicio)) return inicio + 4;
  if (json[inicio] === '"') {
    for (let i = inicio + 1; i < json.length; i++) {
      if (json[i] === '\\') i++;
      else if (json[i] === '"') return i + 1;
    }
  }
  throw new TypeError('nome_condominio de documento de imóvel não é texto nem null');
}
