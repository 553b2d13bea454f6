import { describe, expect, it } from 'vitest';
import { comNomeCondominio, serializarDocumento } from './documento-json.ts';
import { mapearImovel } from './imovel-mapper.ts';
import { FOTOS_BASE_URL, registro } from './registro-de-teste.ts';

const documento = mapearImovel(registro(), { nomeCondominio: 'Edifício Aurora', fotosBaseUrl: FOTOS_BASE_URL });

describe('serializarDocumento', () => {
  it('gives JSON that reads back as the same document', () => {
    expect(JSON.parse(serializarDocumento(documento))).toEqual(documento);
  });
});

describe('comNomeCondominio', () => {
  it('changes only nome_condominio, keeping its position, when a condominium is renamed', () => {
    const json = serializarDocumento(documento);
    const renomeado = comNomeCondominio(json, 'Residencial Aurora');
    expect(renomeado).toBe(serializarDocumento({ ...documento, nome_condominio: 'Residencial Aurora' }));
    expect(Object.keys(JSON.parse(renomeado) as object)).toEqual(Object.keys(documento));
  });

  it('clears the name when the condominium is deleted', () => {
    const renomeado = comNomeCondominio(serializarDocumento(documento), null);
    expect(renomeado).toBe(serializarDocumento({ ...documento, nome_condominio: null }));
  });

  it('gives the identical text when the name does not change', () => {
    const json = serializarDocumento(documento);
    expect(comNomeCondominio(json, 'Edifício Aurora')).toBe(json);
  });

  it('replaces only the field, even when a text of the document quotes it or the name has escapes', () => {
    const ardiloso = { ...documento, titulo: 'Apto "nome_condominio":null \\', descricao: '"nome_condominio":"X"', nome_condominio: 'Ed. "Sol" \\ Mar' };
    const json = serializarDocumento(ardiloso);
    for (const nome of ['Residencial "Lua"', null, 'Ed. "Sol" \\ Mar']) {
      expect(comNomeCondominio(json, nome)).toBe(serializarDocumento({ ...ardiloso, nome_condominio: nome }));
    }
    const semNome = serializarDocumento({ ...ardiloso, nome_condominio: null });
    expect(comNomeCondominio(semNome, 'Aurora')).toBe(serializarDocumento({ ...ardiloso, nome_condominio: 'Aurora' }));
  });

  it('refuses text that is not a stored property document, instead of appending the key', () => {
    expect(() => comNomeCondominio('{"id":"x"}', 'A')).toThrow(TypeError);
    expect(() => comNomeCondominio('[]', 'A')).toThrow(TypeError);
    expect(() => comNomeCondominio('null', 'A')).toThrow(TypeError);
  });
});
