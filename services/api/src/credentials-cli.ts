// `pnpm credentials issue --partner NAME | revoke <id> | revoke --partner NAME | list`.
// The token is printed once, alone on the last line of stdout; the file keeps only its hash.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfiguracaoInvalida, CREDENTIALS_FILE, ehFalhaDeArquivo, lerConfiguracaoOuSair } from '@imoveis/config';
import { z } from 'zod';
import {
  ArquivoCredenciaisInvalido,
  CredencialJaRevogada,
  CredencialNaoEncontrada,
  emitirCredencial,
  legivel,
  lerArquivoCredenciais,
  DemoComParceiros,
  NomeDeParceiroInvalido,
  PREFIXO_HASH,
  revogarCredencial,
  TRAVA_ABANDONADA_MS,
  TravaOcupada,
  travaDe,
} from './credenciais/arquivo-credenciais.ts';

const USO = `uso:
  pnpm credentials issue --partner NOME    emite uma credencial e mostra o token uma única vez
  pnpm credentials revoke <id>             revoga uma credencial
  pnpm credentials revoke --partner NOME   revoga todas as credenciais ativas do parceiro
  pnpm credentials list                    lista as credenciais (sem tokens; hash abreviado)
arquivo: CREDENTIALS_FILE (padrão ${CREDENTIALS_FILE.parse(undefined)})`;

/** What a command line asks for, or why it asks for nothing a command does. */
type Pedido =
  | { comando: 'issue'; parceiro: string }
  | { comando: 'revoke'; id: string }
  | { comando: 'revoke'; parceiro: string }
  | { comando: 'list' }
  | { comando: 'help' }
  | { erro: string };

/**
 * The command line read strictly: an argument a command does not take is an error, never
 * ignored (`revoke ID1 ID2` must not revoke one, leave the other active and exit 0).
 */
function lerPedido(argv: readonly string[]): Pedido {
  // `pnpm credentials -- issue …`, as npm wants it: pnpm passes the `--` on.
  const palavras = argv[0] === '--' ? argv.slice(1) : argv;
  let args;
  try {
    args = parseArgs({ args: [...palavras], allowPositionals: true, options: { partner: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } } });
  } catch (erro) {
    return { erro: erroDeArgumento(erro as NodeJS.ErrnoException) };
  }
  const [comando, ...resto] = args.positionals;
  const parceiros = args.values.partner ?? [];
  if (args.values.help === true || comando === 'help') return { comando: 'help' };
  if (comando === undefined) return { erro: 'falta o comando' };
  if (!['issue', 'revoke', 'list'].includes(comando)) return { erro: `comando desconhecido: ${comando}` };
  if (parceiros.length > 1) return { erro: '--partner: dado mais de uma vez' };
  const parceiro = parceiros[0]?.trim();
  if (parceiro === '') return { erro: '--partner: o nome não pode ser vazio' };
  if (comando === 'list') return resto.length === 0 && parceiro === undefined ? { comando: 'list' } : { erro: 'list não aceita argumentos' };
  if (comando === 'issue') {
    if (resto.length > 0) return { erro: `issue não aceita argumentos além de --partner (recebido: ${resto.join(' ')})` };
    return parceiro === undefined ? { erro: 'issue: falta --partner NOME' } : { comando: 'issue', parceiro };
  }
  if (resto.length > 1) return { erro: `revoke: um id por vez (recebidos: ${resto.join(' ')})` };
  const [id] = resto;
  if ((id === undefined) === (parceiro === undefined)) return { erro: 'revoke: dê um id ou --partner NOME (um dos dois)' };
  return id === undefined ? { comando: 'revoke', parceiro: parceiro! } : { comando: 'revoke', id };
}

/** What parseArgs refused, said in the command's language (its own messages are English). */
function erroDeArgumento({ code, message }: NodeJS.ErrnoException): string {
  const opcao = /'(-[^' <]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `opção desconhecida: ${opcao}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    // `--partner -x`: a value starting with a dash is taken for another option.
    return message.includes('ambiguous') ? `${opcao}: um nome que começa com "-" vai junto da opção (${opcao}=-NOME)` : `${opcao}: falta o nome`;
  }
  return message;
}

/** Runs one command; returns the exit code. Output goes through `escrever`/`avisar` for tests. */
export function executarCli(
  argv: readonly string[],
  opcoes: { arquivo: string; escrever: (linha: string) => void; avisar: (linha: string) => void },
): number {
  const { escrever, avisar, arquivo } = opcoes;
  const pedido = lerPedido(argv);
  if ('erro' in pedido) {
    avisar(`${pedido.erro}\n${USO}`);
    return 2;
  }
  try {
    // A command killed mid-change leaves its lock, taken over only once old: say why nothing happens meanwhile.
    if (pedido.comando === 'issue' || pedido.comando === 'revoke') {
      const trava = travaDe(arquivo);
      if (existsSync(trava)) avisar(`aguardando ${trava}: outro comando em curso, ou um interrompido (tomada quando tiver ${TRAVA_ABANDONADA_MS / 1000} s)`);
    }
    switch (pedido.comando) {
      case 'help':
        escrever(USO);
        return 0;
      case 'issue': {
        const { token, credencial } = emitirCredencial(arquivo, pedido.parceiro);
        escrever(`credencial ${credencial.id} emitida para ${credencial.parceiro} em ${credencial.criada_em}`);
        escrever('guarde o token abaixo: ele não será mostrado de novo');
        escrever(token);
        return 0;
      }
      case 'revoke': {
        const revogadas = revogarCredencial(arquivo, 'id' in pedido ? { id: pedido.id } : { parceiro: pedido.parceiro });
        for (const c of revogadas) escrever(`credencial ${c.id} (${legivel(c.parceiro)}) revogada em ${c.revogada_em ?? ''}`);
        return 0;
      }
      case 'list': {
        // A mistyped path lists nothing: say which file was read, and that it is not there.
        if (!existsSync(arquivo)) avisar(`${arquivo} não existe (CREDENTIALS_FILE): nenhuma credencial emitida nele`);
        const { credenciais } = lerArquivoCredenciais(arquivo);
        if (credenciais.length === 0) escrever('nenhuma credencial');
        for (const c of credenciais) {
          const estado = c.revogada_em === null ? 'ativa' : `revogada em ${c.revogada_em}`;
          // Eight hex digits identify a hash among a partner's few without exposing it.
          escrever(`${c.id}  ${legivel(c.parceiro)}  criada em ${c.criada_em}  ${estado}  ${c.hash.slice(0, PREFIXO_HASH.length + 8)}…`);
        }
        return 0;
      }
    }
  } catch (erro) {
    if (erro instanceof NomeDeParceiroInvalido) {
      avisar(`--partner: ${erro.message}`);
      return 2;
    }
    // Revoked already: what was asked for holds (a script run twice succeeds), and it says so.
    if (erro instanceof CredencialJaRevogada) {
      for (const c of erro.credenciais) escrever(`credencial ${c.id} (${legivel(c.parceiro)}) já revogada em ${c.revogada_em ?? ''}`);
      return 0;
    }
    if (erro instanceof CredencialNaoEncontrada || erro instanceof TravaOcupada || erro instanceof DemoComParceiros) {
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
