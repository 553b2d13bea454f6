// Bearer authentication: every way a credential can be missing or wrong gives 401 with an Erro;
// the credentials file changed under a running API takes effect within seconds; a token in the
// URL is refused and never logged; wrong credentials are limited per client address.
import { execFile, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { unescape } from 'node:querystring';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imovelSalvo } from '../../packages/projection-store/src/eventos-de-teste.ts';
import { executarCli } from '../../services/api/src/credentials-cli.ts';
import { CredenciaisStore, RELEITURA_DO_RECUSADO_MS, TAMANHO_MAXIMO_DO_ARQUIVO, emitirCredencial, lerArquivoCredenciais, revogarCredencial } from '../../services/api/src/index.ts';
import { sqliteTemporario } from '../helpers.ts';
import { criarApi, criarProjecao, idsOrdenados, type ApiDeTeste, type ProjecaoDeTeste } from './api-suporte.ts';

const executar = promisify(execFile);
const RAIZ = fileURLToPath(new URL('../../', import.meta.url));

let projecao: ProjecaoDeTeste;
let api: ApiDeTeste;
let id: string;

beforeAll(async () => {
  projecao = criarProjecao();
  [id] = idsOrdenados(1) as [string];
  projecao.aplicar([imovelSalvo(id, 1)], Date.parse('2026-11-21T10:00:00Z'));
  api = await criarApi({ leitor: projecao.abrirLeitor(), limite: 10_000 });
});

afterAll(async () => {
  await api.fechar();
  projecao.remover();
});

const mensagem = (body: string): string => (JSON.parse(body) as { mensagem: string }).mensagem;

describe('401 with an Erro', () => {
  it('serves a request with a valid bearer credential', async () => {
    expect((await api.get('/api/v1/imoveis')).statusCode).toBe(200);
    expect((await api.get('/api/v1/imoveis', { headers: { authorization: `bearer ${api.token}` } })).statusCode).toBe(200);
  });

  it.each([
    ['missing', null, 'ausente'],
    ['empty', '', 'ausente'],
    ['another scheme', 'Basic dXNlcjpwYXNz', 'malformado'],
    ['the word Bearer alone', 'Bearer', 'malformado'],
    ['two spaces', 'Bearer  imv_x', 'malformado'],
    ['two tokens', 'Bearer a b', 'malformado'],
    ['an unknown token', 'Bearer imv_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'inválida'],
    ['a token of another shape', 'Bearer abc.def', 'inválida'],
  ])('refuses a request whose Authorization is %s', async (_caso, cabecalho, trecho) => {
    const headers: Record<string, string> = cabecalho === null ? {} : { authorization: cabecalho };
    for (const url of ['/api/v1/imoveis', `/api/v1/imoveis/${id}`, '/api/v1/imoveis/removidos?desde=2026-11-21T10:00:00Z']) {
      const r = await api.get(url, { token: null, headers });
      expect(r.statusCode, url).toBe(401);
      expect(r.headers['www-authenticate']).toMatch(/^Bearer realm="imoveis"/);
      expect(mensagem(r.body)).toContain(trecho);
    }
  });

  it('refuses Authorization sent twice, even with the valid credential first (Node would keep only the first)', async () => {
    for (const valores of [[`Bearer ${api.token}`, 'Bearer imv_outro'], [`Bearer ${api.token}`, `Bearer ${api.token}`]]) {
      const r = await api.get('/api/v1/imoveis', { token: null, headers: { authorization: valores } });
      expect(r.statusCode).toBe(401);
      expect(r.headers['www-authenticate']).toMatch(/error="invalid_token"/);
      expect(mensagem(r.body)).toContain('repetido');
    }
  });

  it('checks the credential before the parameters, so a stranger learns nothing from a 400', async () => {
    const r = await api.get('/api/v1/imoveis?por_pagina=999', { token: null });
    expect(r.statusCode).toBe(401);
  });
});

describe('the credentials file changed under a running API', () => {
  it('stops accepting a credential revoked through the CLI within seconds, without a restart', async () => {
    const { token, credencial } = emitirCredencial(api.credenciaisArquivo, 'Portal Revogado');
    await expect.poll(async () => (await api.get('/api/v1/imoveis', { token })).statusCode, { timeout: 5_000, interval: 50 }).toBe(200);

    const saida: string[] = [];
    const codigo = executarCli(['revoke', credencial.id], { arquivo: api.credenciaisArquivo, escrever: (l) => saida.push(l), avisar: (l) => saida.push(l) });
    expect(codigo).toBe(0);
    expect(saida.join('\n')).toContain(credencial.id);

    await expect.poll(async () => (await api.get('/api/v1/imoveis', { token })).statusCode, { timeout: 5_000, interval: 50 }).toBe(401);
    expect(mensagem((await api.get('/api/v1/imoveis', { token })).body)).toBe('credencial revogada');
    // The others are unaffected.
    expect((await api.get('/api/v1/imoveis')).statusCode).toBe(200);
  });

  it('accepts a credential issued after the API started', async () => {
    const { token } = emitirCredencial(api.credenciaisArquivo, 'Portal Novo');
    await expect.poll(async () => (await api.get('/api/v1/imoveis', { token })).statusCode, { timeout: 5_000, interval: 50 }).toBe(200);
  });

  it('revokes every active credential of a partner by name', async () => {
    const a = emitirCredencial(api.credenciaisArquivo, 'Portal Duplo');
    const b = emitirCredencial(api.credenciaisArquivo, 'Portal Duplo');
    const outro = emitirCredencial(api.credenciaisArquivo, 'Portal Vizinho');
    // Both accepted first, so the 401s below come from the revocation, not from an unknown token.
    for (const { token } of [a, b, outro]) {
      await expect.poll(async () => (await api.get('/api/v1/imoveis', { token })).statusCode, { timeout: 5_000, interval: 50 }).toBe(200);
    }
    expect(revogarCredencial(api.credenciaisArquivo, { parceiro: 'Portal Duplo' }).map((c) => c.id).sort()).toEqual([a.credencial.id, b.credencial.id].sort());
    for (const { token } of [a, b]) {
      await expect.poll(async () => mensagem((await api.get('/api/v1/imoveis', { token })).body), { timeout: 5_000, interval: 50 }).toBe('credencial revogada');
    }
    expect((await api.get('/api/v1/imoveis', { token: outro.token })).statusCode).toBe(200);
  });

  it('keeps the last credentials it read while the file cannot be read, says so once and in the metrics, and reads it again once it changes', async () => {
    const { token, credencial } = emitirCredencial(api.credenciaisArquivo, 'Portal Ilegível');
    await expect.poll(async () => (await api.get('/api/v1/imoveis', { token })).statusCode, { timeout: 5_000, interval: 50 }).toBe(200);
    // The file with the credential revoked, made aside.
    const copia = sqliteTemporario('credenciais.json');
    writeFileSync(copia.caminho, readFileSync(api.credenciaisArquivo));
    revogarCredencial(copia.caminho, { id: credencial.id });
    const revogado = readFileSync(copia.caminho);
    copia.remover();

    // Rewritten in place, unreadable, then mended to the same size and time: the file's inode,
    // size and mtime end as they were while it failed; its ctime, which a chmod moves too, does not.
    const instante = new Date('2026-11-21T10:00:00Z');
    const errosAntes = api.logs.filter((l) => l.includes('arquivo de credenciais ilegível')).length;
    writeFileSync(api.credenciaisArquivo, Buffer.alloc(revogado.length, '{'));
    utimesSync(api.credenciaisArquivo, instante, instante);
    const desatualizadas = async () => /^credenciais_desatualizadas 1$/m.test(await api.metricas.registry.metrics());
    await expect.poll(desatualizadas, { timeout: 5_000, interval: 50 }).toBe(true);
    // Older credentials still answer meanwhile (a half-edited file must not lock partners out).
    expect((await api.get('/api/v1/imoveis', { token })).statusCode).toBe(200);
    // Checked again, as the timer does: the same unreadable version is said once.
    api.credenciais.recarregarSeMudou();
    api.credenciais.recarregarSeMudou();
    expect(await desatualizadas()).toBe(true);
    expect(api.logs.filter((l) => l.includes('arquivo de credenciais ilegível')).length).toBe(errosAntes + 1);

    writeFileSync(api.credenciaisArquivo, revogado);
    utimesSync(api.credenciaisArquivo, instante, instante);
    await expect.poll(async () => mensagem((await api.get('/api/v1/imoveis', { token })).body), { timeout: 5_000, interval: 50 }).toBe('credencial revogada');
    expect(await desatualizadas()).toBe(false);
    expect(api.logs.some((l) => l.includes('credenciais em dia'))).toBe(true);
  });

  it('keeps the last credentials it read when the file is deleted, saying so, until a file is there again; and refuses a file over 64 MiB unread', async () => {
    const { token } = emitirCredencial(api.credenciaisArquivo, 'Portal Apagado');
    await expect.poll(async () => (await api.get('/api/v1/imoveis', { token })).statusCode, { timeout: 5_000, interval: 50 }).toBe(200);
    const errosAntes = api.logs.filter((l) => l.includes('arquivo de credenciais ilegível')).length;
    const desatualizadas = async () => /^credenciais_desatualizadas 1$/m.test(await api.metricas.registry.metrics());
    const original = readFileSync(api.credenciaisArquivo);

    rmSync(api.credenciaisArquivo);
    api.credenciais.recarregarSeMudou();
    api.credenciais.recarregarSeMudou();
    expect(await desatualizadas()).toBe(true);
    // Before: an empty set, and a 401 for every partner.
    expect((await api.get('/api/v1/imoveis', { token })).statusCode).toBe(200);
    expect(api.logs.filter((l) => l.includes('arquivo de credenciais ilegível')).length).toBe(errosAntes + 1);

    // A file there again (a credential issued into a new one) is read: only what it holds counts.
    const nova = emitirCredencial(api.credenciaisArquivo, 'Portal Novo');
    api.credenciais.recarregarSeMudou();
    expect(await desatualizadas()).toBe(false);
    expect((await api.get('/api/v1/imoveis', { token: nova.token })).statusCode).toBe(200);
    expect(mensagem((await api.get('/api/v1/imoveis', { token })).body)).toBe('credencial inválida');

    // Over the size a credentials file can have: refused without being read, the last set kept.
    const texto = readFileSync(api.credenciaisArquivo, 'utf8');
    writeFileSync(api.credenciaisArquivo, texto.replace(/\}\s*$/, `, "enchimento": "${'x'.repeat(TAMANHO_MAXIMO_DO_ARQUIVO)}" }`));
    api.credenciais.recarregarSeMudou();
    expect(await desatualizadas()).toBe(true);
    expect(api.logs.some((l) => l.includes(`mais que os ${TAMANHO_MAXIMO_DO_ARQUIVO}`))).toBe(true);
    expect((await api.get('/api/v1/imoveis', { token: nova.token })).statusCode).toBe(200);

    // The file as the other tests of this file left it.
    writeFileSync(api.credenciaisArquivo, original);
    api.credenciais.recarregarSeMudou();
    expect(await desatualizadas()).toBe(false);
  });

  it('the command line keeps the file\'s mode and owner, and a link pointing where it points, so the API can still read what it writes', async () => {
    const real = sqliteTemporario('credenciais-reais.json');
    const ligacao = sqliteTemporario('credenciais.json');
    emitirCredencial(real.caminho, 'Portal Um');
    chmodSync(real.caminho, 0o640);
    // Owned by another user, as the API's file is when ops run the command as root.
    const outroDono = process.getuid?.() === 0 ? 65_534 : statSync(real.caminho).uid;
    chownSync(real.caminho, outroDono, outroDono);
    symlinkSync(real.caminho, ligacao.caminho);

    const { credencial } = emitirCredencial(ligacao.caminho, 'Portal Dois');
    revogarCredencial(ligacao.caminho, { id: credencial.id });
    expect(lstatSync(ligacao.caminho).isSymbolicLink()).toBe(true);
    const depois = statSync(real.caminho);
    expect({ modo: depois.mode & 0o777, uid: depois.uid, gid: depois.gid }).toEqual({ modo: 0o640, uid: outroDono, gid: outroDono });
    expect(lerArquivoCredenciais(real.caminho).credenciais.map((c) => [c.parceiro, c.revogada_em !== null])).toEqual([
      ['Portal Um', false],
      ['Portal Dois', true],
    ]);
    ligacao.remover();
    real.remover();
  });

  it('the command line makes a new file 0600 and, run as root, gives it to the owner of its folder, whom the API runs as', () => {
    const novo = sqliteTemporario('credenciais.json');
    try {
      // Not root, it can give the file to no one else: the file is its own.
      const { uid, gid } = process.getuid?.() === 0 ? { uid: 65_534, gid: 65_534 } : statSync(novo.dir);
      chownSync(novo.dir, uid, gid);
      emitirCredencial(novo.caminho, 'Portal Um');
      const criado = statSync(novo.caminho);
      expect({ modo: criado.mode & 0o777, uid: criado.uid, gid: criado.gid }).toEqual({ modo: 0o600, uid, gid });
    } finally {
      novo.remover();
    }
  });

  it('the command line writes, and locks, the file a link names, even one not made yet', async () => {
    const compartilhada = sqliteTemporario('credenciais.json');
    const ligacao = sqliteTemporario('credenciais.json');
    const alvo = `${compartilhada.dir}/pasta/credenciais.json`;
    symlinkSync(alvo, ligacao.caminho);
    try {
      emitirCredencial(ligacao.caminho, 'Portal Um');
      expect(lstatSync(ligacao.caminho).isSymbolicLink()).toBe(true);
      expect(lerArquivoCredenciais(alvo).credenciais.map((c) => c.parceiro)).toEqual(['Portal Um']);

      // A command holding the shared file's lock (through the file, or another host's link) holds back this one.
      const comando = (...args: string[]) =>
        executar(process.execPath, ['--import', 'tsx', 'services/api/src/credentials-cli.ts', ...args], {
          cwd: RAIZ,
          env: { ...process.env, CREDENTIALS_FILE: ligacao.caminho },
          timeout: 60_000,
        });
      // How long the command takes with no lock in its way, so the wait below is no mere slow start.
      const inicio = performance.now();
      await comando('list');
      const semTrava = performance.now() - inicio;
      writeFileSync(`${alvo}.lock`, '');
      const travadaEm = performance.now();
      const cli = spawn(process.execPath, ['--import', 'tsx', 'services/api/src/credentials-cli.ts', 'issue', '--partner', 'Portal Dois'], {
        cwd: RAIZ,
        env: { ...process.env, CREDENTIALS_FILE: ligacao.caminho },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let avisos = '';
      cli.stderr.on('data', (parte: Buffer) => (avisos += parte.toString()));
      let terminou = false;
      const fim = new Promise<number | null>((resolve) => cli.once('close', resolve)).finally(() => (terminou = true));
      // It says why it waits once it is running (however slowly it started), then waits: twice its
      // time without a lock, but only while the lock is under 8 s old (at 10 s it counts as a
      // killed command's, and is taken over).
      await expect.poll(() => avisos, { timeout: 30_000, interval: 50 }).toContain(`aguardando ${alvo}.lock: outro comando em curso`);
      const restante = 8_000 - (performance.now() - travadaEm);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(restante, Math.max(500, 2 * semTrava)))));
      expect(terminou).toBe(false);
      expect(lerArquivoCredenciais(alvo).credenciais).toHaveLength(1);
      rmSync(`${alvo}.lock`);
      expect(await fim, avisos).toBe(0);
      expect(lerArquivoCredenciais(alvo).credenciais.map((c) => c.parceiro)).toEqual(['Portal Um', 'Portal Dois']);
    } finally {
      ligacao.remover();
      compartilhada.remover();
    }
  }, 60_000);
});

describe('a token in the URL', () => {
  it.each([
    ['access_token', (t: string) => `?access_token=${t}`],
    ['token', (t: string) => `?token=${t}`],
    ['any parameter holding a token', (t: string) => `?cursor=${t}`],
    ['the path', (t: string) => `/${t}`],
    ['a parameter, encoded twice', (t: string) => `?x=${t.replace('imv_', '%2569mv%255F')}`],
    ['the path, encoded, beside a malformed escape', (t: string) => `/${t.replace('_', '%5F')}%ZZ`],
  ])('is refused with 401 even beside a valid header (%s), and never logged, even encoded', async (_caso, query) => {
    const r = await api.get(`/api/v1/imoveis${query(api.token)}`);
    expect(r.statusCode).toBe(401);
    expect(mensagem(r.body)).toContain('URL');
    // Decoded as often as it takes, what the log holds shows no token.
    let logs = api.logs.join('');
    for (let anterior = ''; anterior !== logs; ) [anterior, logs] = [logs, unescape(logs)];
    expect(logs).not.toContain(api.token.slice(4));
  });

  it('is never logged, and neither is the Authorization header', async () => {
    await api.get('/api/v1/imoveis');
    await api.get(`/api/v1/imoveis/${api.token}`);
    const logs = api.logs.join('');
    expect(logs).toContain('requisição atendida');
    expect(logs).not.toContain(api.token);
    expect(logs).not.toContain(api.token.slice(4));
  });

  it('is named in each request\'s log line by its id and partner, never by its token', async () => {
    await api.get('/api/v1/imoveis');
    const atendida = api.logs
      .flatMap((l) => l.split('\n'))
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg: string; servico?: string; credencial?: { id: string; parceiro: string } })
      .findLast((l) => l.msg === 'requisição atendida');
    expect(atendida).toMatchObject({ servico: 'api', credencial: { id: expect.stringMatching(/^[0-9a-f]{12}$/), parceiro: expect.any(String) } });
  });

  it('names the credential in the line of a request refused for its limit, and a revoked one with its reason', async () => {
    const limitada = await criarApi({ leitor: projecao.abrirLeitor(), limite: 1 });
    try {
      const { token, credencial } = emitirCredencial(limitada.credenciaisArquivo, 'Portal Apressado');
      await expect.poll(async () => (await limitada.get('/api/v1/imoveis', { token })).statusCode, { timeout: 5_000, interval: 50 }).toBe(429);
      revogarCredencial(limitada.credenciaisArquivo, { id: credencial.id });
      await expect.poll(async () => mensagem((await limitada.get('/api/v1/imoveis', { token })).body), { timeout: 5_000, interval: 50 }).toBe('credencial revogada');
      const linhas = limitada.logs
        .flatMap((l) => l.split('\n'))
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { msg: string; motivo?: string; credencial?: { id: string }; res?: { statusCode: number } })
        .filter((l) => l.msg === 'requisição atendida' && l.credencial?.id === credencial.id);
      expect(linhas).toContainEqual(expect.objectContaining({ res: { statusCode: 429 } }));
      expect(linhas.at(-1)).toMatchObject({ motivo: 'revogada', res: { statusCode: 401 } });
    } finally {
      await limitada.fechar();
    }
  });

  it('a refused one is one log line too (at info), saying why', async () => {
    const antes = api.logs.length;
    await api.get('/api/v1/imoveis', { token: `imv_${'x'.repeat(43)}` });
    const linhas = api.logs
      .slice(antes)
      .flatMap((l) => l.split('\n'))
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: number; msg: string; motivo?: string; res?: { statusCode: number } })
      .filter((l) => l.level >= 30); // info and above: what production logs
    expect(linhas).toEqual([expect.objectContaining({ msg: 'requisição atendida', motivo: 'desconhecida', res: { statusCode: 401 } })]);
  });
});

describe('the credentials file', () => {
  it('holds only hashes of tokens, with partner, id and timestamps', () => {
    const texto = readFileSync(api.credenciaisArquivo, 'utf8');
    expect(texto).not.toContain(api.token);
    const { credenciais } = lerArquivoCredenciais(api.credenciaisArquivo);
    for (const c of credenciais) {
      expect(Object.keys(c).sort()).toEqual(['criada_em', 'hash', 'id', 'parceiro', 'revogada_em']);
      expect(c.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
  });

  it('keeps the fields an operator added by hand when a command rewrites it', () => {
    const arquivo = sqliteTemporario('credenciais.json');
    try {
      const { credencial } = emitirCredencial(arquivo.caminho, 'portal-a');
      const escrito = JSON.parse(readFileSync(arquivo.caminho, 'utf8')) as { credenciais: Record<string, unknown>[] };
      writeFileSync(arquivo.caminho, JSON.stringify({ ...escrito, responsavel: 'ops', credenciais: escrito.credenciais.map((c) => ({ ...c, chamado: 'OPS-42' })) }));
      emitirCredencial(arquivo.caminho, 'portal-b');
      revogarCredencial(arquivo.caminho, { id: credencial.id });
      const final = JSON.parse(readFileSync(arquivo.caminho, 'utf8')) as { responsavel?: string; credenciais: Record<string, unknown>[] };
      expect(final.responsavel).toBe('ops');
      expect(final.credenciais.map((c) => [c['parceiro'], c['chamado'], c['revogada_em'] !== null])).toEqual([
        ['portal-a', 'OPS-42', true],
        ['portal-b', undefined, false],
      ]);
      // …but never a token pasted into one: the file holds hashes only, and no command keeps it.
      const { token } = emitirCredencial(arquivo.caminho, 'portal-c');
      writeFileSync(arquivo.caminho, JSON.stringify({ ...final, nota: `token do portal-c: ${token}` }));
      expect(() => emitirCredencial(arquivo.caminho, 'portal-d')).toThrow('guarda um token, e só deve guardar hashes de tokens');
      expect(readFileSync(arquivo.caminho, 'utf8')).not.toContain('portal-d');
    } finally {
      arquivo.remover();
    }
  });
});

describe('pnpm credentials', () => {
  it('keeps every change when several commands run at once (issues and a revocation), a lock a killed command left taken over by one of them', async () => {
    const arquivo = sqliteTemporario('credenciais.json');
    try {
      const { credencial: alvo } = emitirCredencial(arquivo.caminho, 'Portal Revogado');
      writeFileSync(`${arquivo.caminho}.lock`, '');
      utimesSync(`${arquivo.caminho}.lock`, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
      const cli = (...args: string[]) =>
        executar(process.execPath, ['--import', 'tsx', 'services/api/src/credentials-cli.ts', ...args], {
          cwd: RAIZ,
          env: { ...process.env, CREDENTIALS_FILE: arquivo.caminho },
          timeout: 60_000,
        });
      const saidas = await Promise.all([cli('revoke', alvo.id), ...Array.from({ length: 6 }, (_, i) => cli('issue', '--partner', `Portal ${i}`))]);
      const tokens = saidas.slice(1).map(({ stdout }) => stdout.trimEnd().split('\n').at(-1));
      const { credenciais } = lerArquivoCredenciais(arquivo.caminho);
      expect(credenciais).toHaveLength(7);
      expect(credenciais.find((c) => c.id === alvo.id)?.revogada_em).not.toBeNull();
      expect(new Set(tokens).size).toBe(6);
      expect(existsSync(`${arquivo.caminho}.lock`)).toBe(false);
      expect(existsSync(`${arquivo.caminho}.lock.tomada`)).toBe(false);
    } finally {
      arquivo.remover();
    }
  }, 120_000);

  it("never puts the demo's credential (its token in plain text beside the file) and partners' active in one file", () => {
    const [dosParceiros, daDemo] = [sqliteTemporario('credenciais.json'), sqliteTemporario('credenciais.json')];
    try {
      emitirCredencial(dosParceiros.caminho, 'Portal Um');
      emitirCredencial(daDemo.caminho, 'demo');
      const avisos: string[] = [];
      const emitir = (arquivo: string, parceiro: string) => executarCli(['issue', '--partner', parceiro], { arquivo, escrever: () => {}, avisar: (l) => avisos.push(l) });
      expect(emitir(dosParceiros.caminho, 'demo')).toBe(1);
      expect(emitir(daDemo.caminho, 'Portal Dois')).toBe(1);
      expect(avisos).toEqual([expect.stringContaining('guarda credenciais de parceiros'), expect.stringContaining('guarda a credencial ativa da demonstração')]);
      // Another token for the demo, in its own file; and, the demo's revoked, partners' there.
      expect(emitir(daDemo.caminho, 'demo')).toBe(0);
      revogarCredencial(daDemo.caminho, { parceiro: 'demo' });
      expect(emitir(daDemo.caminho, 'Portal Dois')).toBe(0);
      expect(lerArquivoCredenciais(dosParceiros.caminho).credenciais.map((c) => c.parceiro)).toEqual(['Portal Um']);
    } finally {
      dosParceiros.remover();
      daDemo.remover();
    }
  });

  it('reads a version refused for what it holds once, then only every 30 s or once it changes (a chmod too); one it cannot read at every check', () => {
    const arquivo = sqliteTemporario('credenciais.json');
    const { token } = emitirCredencial(arquivo.caminho, 'Portal Lido');
    let leituras = 0;
    let agora = 0;
    const store = CredenciaisStore.abrir(arquivo.caminho, {
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      ler: (caminho) => (leituras++, lerArquivoCredenciais(caminho)),
      agora: () => agora,
    });
    try {
      expect(leituras).toBe(1);
      writeFileSync(arquivo.caminho, '{ isto não é json');
      for (let i = 0; i < 4; i++) store.recarregarSeMudou();
      expect([leituras, store.desatualizadas]).toEqual([2, true]);
      expect(store.autenticar(token).tipo).toBe('valida');
      agora += RELEITURA_DO_RECUSADO_MS;
      store.recarregarSeMudou();
      expect(leituras).toBe(3);
      chmodSync(arquivo.caminho, 0o640);
      store.recarregarSeMudou();
      store.recarregarSeMudou();
      expect(leituras).toBe(4);
      // Not readable at all (a folder where the file was): tried at every check.
      rmSync(arquivo.caminho);
      mkdirSync(arquivo.caminho);
      store.recarregarSeMudou();
      const antes = leituras;
      store.recarregarSeMudou();
      store.recarregarSeMudou();
      expect(leituras).toBe(antes + 2);
      expect(store.autenticar(token).tipo).toBe('valida');
    } finally {
      store.close();
      arquivo.remover();
    }
  });

  it('keeps the last credentials when the file goes between its check and its read', () => {
    const arquivo = sqliteTemporario('credenciais.json');
    const { token } = emitirCredencial(arquivo.caminho, 'Portal Sumido');
    let sumir = false;
    const store = CredenciaisStore.abrir(arquivo.caminho, {
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      ler: (caminho, opcoes) => {
        if (sumir) rmSync(caminho);
        return lerArquivoCredenciais(caminho, opcoes);
      },
    });
    try {
      // A new version (its signature moved), gone when it is read. Before: an empty set, every partner refused.
      revogarCredencial(arquivo.caminho, { id: emitirCredencial(arquivo.caminho, 'Outro').credencial.id });
      sumir = true;
      store.recarregarSeMudou();
      expect([store.autenticar(token).tipo, store.desatualizadas]).toEqual(['valida', true]);
      sumir = false;
      store.recarregarSeMudou();
      expect([store.autenticar(token).tipo, store.desatualizadas]).toEqual(['valida', true]);
    } finally {
      store.close();
      arquivo.remover();
    }
  });

  it("is never accepted by the partners' API (semDemo), found at start or issued while it runs, and said in its log", () => {
    const arquivo = sqliteTemporario('credenciais.json');
    const erros: string[] = [];
    const logger = { info: () => {}, warn: () => {}, error: (_c: object, m: string) => erros.push(m) };
    const [daApi, qualquer] = [CredenciaisStore.abrir(arquivo.caminho, { logger, semDemo: true }), CredenciaisStore.abrir(arquivo.caminho, { logger: { ...logger, error: () => {} } })];
    try {
      expect(daApi.demoAtiva).toBe(false);
      const { token } = emitirCredencial(arquivo.caminho, 'demo');
      for (const store of [daApi, qualquer]) store.recarregarSeMudou();
      expect(daApi.autenticar(token).tipo).toBe('desconhecida');
      expect(daApi.demoAtiva).toBe(true);
      expect(erros).toEqual([expect.stringContaining('credencial ativa da demonstração')]);
      // The demo's own store (without semDemo) accepts it.
      expect(qualquer.autenticar(token).tipo).toBe('valida');
    } finally {
      daApi.close();
      qualquer.close();
      arquivo.remover();
    }
  });

  it('issue prints the token once, alone on the last line; list never shows it or a whole hash', async () => {
    const arquivo = sqliteTemporario('credenciais.json');
    try {
      const { stdout } = await executar(process.execPath, ['--import', 'tsx', 'services/api/src/credentials-cli.ts', 'issue', '--partner', 'Portal Exemplo'], {
        cwd: RAIZ,
        env: { ...process.env, CREDENTIALS_FILE: arquivo.caminho },
        timeout: 30_000,
      });
      const linhas = stdout.trimEnd().split('\n');
      const token = linhas.at(-1) as string;
      expect(token).toMatch(/^imv_[A-Za-z0-9_-]{43}$/);
      expect(stdout.split(token)).toHaveLength(2);
      // The token printed is the credential the API reads from the file.
      const silencioso = { info: () => {}, warn: () => {}, error: () => {} };
      const credenciais = CredenciaisStore.abrir(arquivo.caminho, { logger: silencioso });
      try {
        expect(credenciais.autenticar(token)).toMatchObject({ tipo: 'valida', credencial: { parceiro: 'Portal Exemplo' } });
      } finally {
        credenciais.close();
      }

      const saida: string[] = [];
      expect(executarCli(['list'], { arquivo: arquivo.caminho, escrever: (l) => saida.push(l), avisar: (l) => saida.push(l) })).toBe(0);
      const lista = saida.join('\n');
      expect(lista).toContain('Portal Exemplo');
      expect(lista).toContain('ativa');
      expect(lista).not.toContain(token);
      const [credencial] = lerArquivoCredenciais(arquivo.caminho).credenciais;
      expect(lista).not.toContain(credencial?.hash.slice(7));

      const erros: string[] = [];
      expect(executarCli(['revoke', 'ffffffffffff'], { arquivo: arquivo.caminho, escrever: () => {}, avisar: (l) => erros.push(l) })).toBe(1);
      expect(erros).toEqual(['nenhuma credencial com id ffffffffffff']);
      expect(executarCli(['issue'], { arquivo: arquivo.caminho, escrever: () => {}, avisar: (l) => erros.push(l) })).toBe(2);
      // A name that would print as two lines of `list`, or fill a screen: refused, nothing issued.
      const recusas: string[] = [];
      for (const nome of ['Portal\nabc123  Portal Falso  ativa', 'P'.repeat(101), 'Portal\u202eoslaF']) {
        expect(executarCli(['issue', '--partner', nome], { arquivo: arquivo.caminho, escrever: () => {}, avisar: (l) => recusas.push(l) }), nome).toBe(2);
      }
      expect(recusas).toEqual([
        '--partner: não pode ter quebras de linha nem outros caracteres de controle',
        '--partner: deve ter no máximo 100 caracteres',
        '--partner: não pode ter quebras de linha nem outros caracteres de controle',
      ]);
      expect(lerArquivoCredenciais(arquivo.caminho).credenciais).toHaveLength(1);

      // An argument a command does not take is refused, with what was wrong, and nothing is done:
      // `revoke A B` once revoked A alone and exited 0.
      const segundo = emitirCredencial(arquivo.caminho, 'Outro Portal').credencial;
      const mal: [string[], string][] = [
        [['revoke', credencial!.id, segundo.id], `revoke: um id por vez (recebidos: ${credencial!.id} ${segundo.id})`],
        [['revoke'], 'revoke: dê um id ou --partner NOME (um dos dois)'],
        [['revoke', segundo.id, '--partner', 'Outro Portal'], 'revoke: dê um id ou --partner NOME (um dos dois)'],
        [['issue', 'extra', '--partner', 'X'], 'issue não aceita argumentos além de --partner (recebido: extra)'],
        [['issue', '--partner', 'X', '--partner', 'Y'], '--partner: dado mais de uma vez'],
        [['issue', '--partner', '   '], '--partner: o nome não pode ser vazio'],
        [['issue'], 'issue: falta --partner NOME'],
        [['list', '--partner', 'X'], 'list não aceita argumentos'],
        [['remove', 'x'], 'comando desconhecido: remove'],
        [[], 'falta o comando'],
      ];
      for (const [argv, motivo] of mal) {
        const avisos: string[] = [];
        expect(executarCli(argv, { arquivo: arquivo.caminho, escrever: () => {}, avisar: (l) => avisos.push(l) }), argv.join(' ')).toBe(2);
        expect(avisos.join('\n'), argv.join(' ')).toMatch(new RegExp(`^${motivo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\nuso:`));
      }
      expect(lerArquivoCredenciais(arquivo.caminho).credenciais.map((c) => c.revogada_em)).toEqual([null, null]);
      // What parseArgs refuses, in the command's language.
      const recusadas: [string[], string][] = [
        [['issue', '--partner'], '--partner: falta o nome'],
        [['issue', '--parter', 'X'], 'opção desconhecida: --parter'],
        [['issue', '--partner', '-X'], '--partner: um nome que começa com "-" vai junto da opção (--partner=-NOME)'],
      ];
      for (const [argv, motivo] of recusadas) {
        const avisos: string[] = [];
        expect(executarCli(argv, { arquivo: arquivo.caminho, escrever: () => {}, avisar: (l) => avisos.push(l) }), argv.join(' ')).toBe(2);
        expect(avisos.join('\n').split('\n')[0], argv.join(' ')).toBe(motivo);
      }
      // `--` first, as npm wants it, reaches the command as if left out.
      const comTraco: string[] = [];
      expect(executarCli(['--', 'issue', '--partner', 'Portal Traço'], { arquivo: arquivo.caminho, escrever: (l) => comTraco.push(l), avisar: (l) => comTraco.push(l) })).toBe(0);
      expect(comTraco[0]).toMatch(/^credencial [0-9a-f]{12} emitida para Portal Traço em /);
      // Revoked twice: the second says it was revoked already and succeeds; a name typed as an id gets a hint.
      const idTraco = lerArquivoCredenciais(arquivo.caminho).credenciais.find((c) => c.parceiro === 'Portal Traço')!.id;
      const revogacoes: string[] = [];
      const revogar = (...argv: string[]) => executarCli(['revoke', ...argv], { arquivo: arquivo.caminho, escrever: (l) => revogacoes.push(l), avisar: (l) => revogacoes.push(l) });
      expect([revogar(idTraco), revogar(idTraco), revogar('--partner', 'Portal Traço'), revogar('Portal')]).toEqual([0, 0, 0, 1]);
      expect(revogacoes).toEqual([
        expect.stringMatching(new RegExp(`^credencial ${idTraco} \\(Portal Traço\\) revogada em `)),
        expect.stringMatching(new RegExp(`^credencial ${idTraco} \\(Portal Traço\\) já revogada em `)),
        expect.stringMatching(new RegExp(`^credencial ${idTraco} \\(Portal Traço\\) já revogada em `)),
        'nenhuma credencial com id Portal (um id tem 12 dígitos hexadecimais; para revogar pelo nome, use --partner NOME)',
      ]);
      for (const argv of [['help'], ['--help'], ['issue', '--help'], ['-h']]) {
        const saidaDeAjuda: string[] = [];
        expect(executarCli(argv, { arquivo: arquivo.caminho, escrever: (l) => saidaDeAjuda.push(l), avisar: () => {} }), argv.join(' ')).toBe(0);
        expect(saidaDeAjuda.join('\n')).toMatch(/^uso:/);
      }
      // A file that is not there is named, beside the empty list.
      const avisosDaLista: string[] = [];
      expect(executarCli(['list'], { arquivo: `${arquivo.caminho}.nao-existe`, escrever: (l) => avisosDaLista.push(l), avisar: (l) => avisosDaLista.push(l) })).toBe(0);
      expect(avisosDaLista).toEqual([`${arquivo.caminho}.nao-existe não existe (CREDENTIALS_FILE): nenhuma credencial emitida nele`, 'nenhuma credencial']);
      revogarCredencial(arquivo.caminho, { id: segundo.id });
      // One issued before names were checked still lists as one line.
      const [emitida] = lerArquivoCredenciais(arquivo.caminho).credenciais;
      writeFileSync(arquivo.caminho, JSON.stringify({ versao: 1, credenciais: [{ ...emitida, parceiro: 'Antigo\nabc123  Falso' }] }));
      const listadas: string[] = [];
      executarCli(['list'], { arquivo: arquivo.caminho, escrever: (l) => listadas.push(l), avisar: (l) => listadas.push(l) });
      expect(listadas).toEqual([expect.stringContaining('  Antigo\\u000aabc123  Falso  criada em')]);

      // A file that is no credentials file, or a folder: one line naming the setting, the file left alone.
      const outro = sqliteTemporario('nao-credenciais.json');
      try {
        writeFileSync(outro.caminho, '{"isto": "não"}');
        for (const caminho of [outro.caminho, outro.dir]) {
          const linhas: string[] = [];
          expect(executarCli(['list'], { arquivo: caminho, escrever: () => {}, avisar: (l) => linhas.push(l) }), caminho).toBe(1);
          expect(executarCli(['issue', '--partner', 'X'], { arquivo: caminho, escrever: () => {}, avisar: (l) => linhas.push(l) }), caminho).toBe(1);
          expect(linhas, caminho).toEqual([expect.stringMatching(/^configuração inválida: CREDENTIALS_FILE: /), expect.stringMatching(/^configuração inválida: CREDENTIALS_FILE: /)]);
        }
        expect(readFileSync(outro.caminho, 'utf8')).toBe('{"isto": "não"}');
      } finally {
        outro.remover();
      }
    } finally {
      arquivo.remover();
    }
  });
});

describe('requests without a valid credential', () => {
  it('are counted per client address and get the 401 every time, past the limit with a Retry-After, while valid partners keep their own window', async () => {
    const pequena = await criarApi({ leitor: projecao.abrirLeitor(), limite: 5 });
    try {
      for (let i = 0; i < 8; i++) {
        const token = i % 2 === 0 ? `imv_${'B'.repeat(42)}${i}` : null;
        const r = await pequena.get('/api/v1/imoveis', { token });
        expect(r.statusCode, String(i)).toBe(401);
        expect(r.headers['www-authenticate']).toMatch(/^Bearer realm="imoveis"/);
        expect(r.headers['ratelimit-policy']).toBe('"endereco";q=5;w=60');
        // Never a 429, which would tell a partner whose token was revoked to repeat the request later.
        if (i < 5) expect(r.headers['retry-after'], String(i)).toBeUndefined();
        else expect(Number(r.headers['retry-after']), String(i)).toBeGreaterThanOrEqual(1);
      }
      // A valid credential from the same address is counted apart.
      const valida = await pequena.get('/api/v1/imoveis');
      expect(valida.statusCode).toBe(200);
      expect(valida.headers['ratelimit-policy']).toBe('"credencial";q=5;w=60');
      expect(valida.headers['ratelimit']).toMatch(/^"credencial";r=4;t=\d+$/);
      expect(await pequena.metricas.registry.metrics()).toMatch(/^limite_recusas_total\{chave="endereco"\} 3$/m);
    } finally {
      await pequena.fechar();
    }
  });
});
