// `pnpm credentials issue --partner NAME | revoke <id> | revoke --partner NAME | list`.
// The token is printed once, alone on the last line of stdout; the file keeps only its hash.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfiguracaoInvalida, CREDENTIALS_FILE, ehFalhaDeArquivo, lerConfiguracaoOuSair } from '@imoveis/config';
import { z } from 'zod';
import {
  ArquivoCredenciaisInvalido,
  CARACTERES_DE_CONTROLE,
  CredencialNaoEncontrada,
  emitirCredencial,
  lerArquivoCredenciais,
  NomeDeParceiroInvalido,
  PREFIXO_HASH,
  revogarCredencial,
} from './credenciais/arquivo-credenciais.ts';

const USO = `uso:
  pnpm credentials issue --partner NOME    emite uma credencial e mostra o token uma única vez
  pnpm credentials revoke <id>             revoga uma credencial
  pnpm credentials revoke --partner NOME   revoga todas as credenciais ativas do parceiro
  pnpm credentials list                    lista as credenciais (sem tokens; hash abreviado)
arquivo: CREDENTIALS_FILE (padrão ${CREDENTIALS_FILE.parse(undefined)})`;

/** A name from a file written before names were checked, its control characters escaped: one line of `list` each. */
const legivel = (nome: string): string => nome.replace(CARACTERES_DE_CONTROLE, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);

/** Runs one command; returns the exit code. Output goes through `escrever`/`avisar` for tests. */
export function executarCli(
  argv: readonly string[],
  opcoes: { arquivo: string; escrever: (linha: string) => void; avisar: (linha: string) => void },
): number {
  const { escrever, avisar, arquivo } = opcoes;
  let args;
  try {
    args = parseArgs({ args: [...argv], allowPositionals: true, options: { partner: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (erro) {
    avisar(`${(erro as Error).message}\n${USO}`);
    return 2;
  }
  const [comando, ...resto] = args.positionals;
  const parceiro = args.values.partner?.trim();
  try {
    switch (comando) {
      case 'issue': {
        if (!parceiro) break;
        const { token, credencial } = emitirCredencial(arquivo, parceiro);
        escrever(`credencial ${credencial.id} emitida para ${credencial.parceiro} em ${credencial.criada_em}`);
        escrever('guarde o token abaixo: ele não será mostrado de novo');
        escrever(token);
        return 0;
      }
      case 'revoke': {
        const id = resto[0];
        if ((id === undefined) === (parceiro === undefined || parceiro === '')) break;
        const revogadas = revogarCredencial(arquivo, id !== undefined ? { id } : { parceiro: parceiro as string });
        for (const c of revogadas) escrever(`credencial ${c.id} (${c.parceiro}) revogada em ${c.revogada_em ?? ''}`);
        return 0;
      }
      case 'list': {
        const { credenciais } = lerArquivoCredenciais(arquivo);
        if (credenciais.length === 0) escrever('nenhuma credencial');
        for (const c of credenciais) {
          const estado = c.revogada_em === null ? 'ativa' : `revogada em ${c.revogada_em}`;
          // Eight hex digits identify a hash among a partner's few without exposing it.
          escrever(`${c.id}  ${legivel(c.parceiro)}  criada em ${c.criada_em}  ${estado}  ${c.hash.slice(0, PREFIXO_HASH.length + 8)}…`);
        }
        return 0;
      }
      default:
        if (args.values.help) {
          escrever(USO);
          return 0;
        }
    }
  } catch (erro) {
    if (erro instanceof NomeDeParceiroInvalido) {
      avisar(`--partner: ${erro.message}`);
      return 2;
    }
    if (erro instanceof CredencialNaoEncontrada) {
      avisar(erro.message);
      return 1;
    }
    // A file that is no credentials file, or a path that cannot hold one: the setting's one line.
    if (erro instanceof ArquivoCredenciaisInvalido || ehFalhaDeArquivo(erro)) {
      avisar(new ConfiguracaoInvalida('CREDENTIALS_FILE', erro.message).message);
      return 1;
    }
    throw erro;
  }
  avisar(USO);
  return 2;
}

// Run as a program (pnpm credentials), not when imported by tests.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const config = lerConfiguracaoOuSair(z.object({ CREDENTIALS_FILE }));
  process.exitCode = executarCli(process.argv.slice(2), {
    arquivo: config.CREDENTIALS_FILE,
    escrever: (linha) => process.stdout.write(`${linha}\n`),
    avisar: (linha) => process.stderr.write(`${linha}\n`),
  });
}
