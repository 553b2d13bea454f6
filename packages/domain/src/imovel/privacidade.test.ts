// Decoding and mapping over the generator's realistic register data, private fields and all: what
// agents type into the free text (telephones in every form, e-mails, the owner's CPF and name)
// never reaches a partner document, nor does any private field's value.
import { describe, expect, it } from 'vitest';
import { decodificarEvento } from '@imoveis/contracts';
import { gerarCargaInicial } from '@imoveis/generator';
import { mapearImovel } from './imovel-mapper.ts';
import { FOTOS_BASE_URL } from './registro-de-teste.ts';

/** The raw record's private fields, and its free text as typed. */
interface Privados {
  titulo: string | null;
  descricao_html: string | null;
  proprietario: { nome: string; cpf: string; telefone: string; email: string };
  corretor: { nome: string; creci: string; telefone: string; email: string };
  observacoes_internas: string;
  matricula: string | null;
}

/** The text with what separates a number's groups taken out: "(11) 98765-4321" → "11987654321". */
const semSeparadores = (texto: string) => texto.replace(/[\s.\-\u2010-\u2014()/]/g, '');

describe('privacy over generated register data', () => {
  // Every property save of a generated load, decoded as the projector decodes it (a poison event
  // goes to the dead-letter topic, not to partners), beside the private fields it was sent with.
  const salvos = [...gerarCargaInicial({ seed: 11, imoveis: 3_000, condominios: 60 })].flatMap((r) => {
    if (r.topico !== 'imoveis' || r.valor === null) return [];
    const d = decodificarEvento('imovel', r.chave, r.valor);
    if (!d.ok || d.evento.tipo !== 'imovel.salvo') return [];
    const { dados } = d.evento;
    const privados = (JSON.parse(r.valor) as { dados: Privados }).dados;
    // What decoding kept aside, for the mapping to mask, as the projector's preparing step passes it.
    const contexto = { fotosBaseUrl: FOTOS_BASE_URL, nomeCondominio: null, ...(d.privados && { privados: d.privados }) };
    return [{ dados, privados, documento: mapearImovel(dados, contexto) }];
  });

  it('sends no contact typed into titulo or descricao, however it was written', () => {
    let contatosDigitados = 0;
    for (const { dados, privados, documento } of salvos) {
      // As the agent typed it, before anything was masked.
      const livre = `${privados.titulo ?? ''} ${privados.descricao_html ?? ''}`;
      const publicado = `${documento.titulo} ${documento.descricao ?? ''}`;
      const contatos = [privados.proprietario.telefone, privados.corretor.telefone, privados.proprietario.cpf].map((t) => t.replace(/\D/g, '').slice(-8));
      const emails = [privados.proprietario.email, privados.corretor.email];
      if (contatos.some((c) => semSeparadores(livre).includes(c)) || emails.some((e) => livre.includes(e))) contatosDigitados++;
      for (const c of contatos) expect(semSeparadores(publicado), dados.id).not.toContain(c);
      for (const e of emails) expect(publicado.toLowerCase(), dados.id).not.toContain(e.toLowerCase());
    }
    // The generator types contacts into about one text in eight: the checks above met many.
    expect(contatosDigitados).toBeGreaterThan(salvos.length / 20);
  });

  // Values that identify (not `chaves_local`, whose "Portaria" is also a characteristic).
  it('sends no identifying private value in any document, the names agents typed into descriptions included', () => {
    let nomesDigitados = 0;
    let notasDigitadas = 0;
    for (const { privados, documento } of salvos) {
      const json = JSON.stringify(documento);
      const { proprietario, corretor, observacoes_internas, matricula } = privados;
      if (privados.descricao_html?.includes(proprietario.nome)) nomesDigitados++;
      if (privados.descricao_html?.includes(observacoes_internas)) notasDigitadas++;
      for (const privado of [proprietario.nome, corretor.nome, proprietario.email, corretor.email, corretor.creci, proprietario.cpf, observacoes_internas, matricula]) {
        if (privado) expect(json, documento.id).not.toContain(privado);
      }
    }
    // The generator types the owner's name into about one description in seventy, the internal note
    // into one in seventy too.
    expect(nomesDigitados).toBeGreaterThan(salvos.length / 200);
    expect(notasDigitadas).toBeGreaterThan(salvos.length / 200);
  });
});
