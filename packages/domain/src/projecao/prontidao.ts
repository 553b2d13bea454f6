// When is a process that serves or keeps the projection ready (operations.md)? Not while the
// projection is missing, or older than the allowed lag, or the process itself cannot serve
// (under pressure, starting, stopping). A quiet
// register is not lag: a caught-up projector re-confirms `emDiaEm` every few seconds.

export interface EstadoProntidao {
  pronto: boolean;
  motivos: string[];
  /** Seconds since the projector last confirmed it had consumed everything; null if never. */
  idade_projecao_s: number | null;
}

/** Seconds since the projection was last confirmed caught up (`emDiaEm`), never negative; null if never. */
export function idadeDaProjecaoS(emDiaEm: number | null, agoraMs: number): number | null {
  return emDiaEm === null ? null : Math.max(0, (agoraMs - emDiaEm) / 1000);
}

export function avaliarProntidao(args: {
  /** The projection's freshness record, or null when there is no projection. */
  frescor: { readonly emDiaEm: number | null } | null;
  agoraMs: number;
  atrasoMaximoMs: number;
  /** What keeps the process itself from serving (under pressure, starting, stopping). */
  doProcesso: readonly string[];
}): EstadoProntidao {
  const motivos: string[] = [];
  const emDiaEm = args.frescor?.emDiaEm ?? null;
  const idade = idadeDaProjecaoS(emDiaEm, args.agoraMs);
  if (args.frescor === null) motivos.push('projeção ausente');
  else if (emDiaEm === null) motivos.push('o projetor ainda não alcançou o fim dos tópicos');
  else if (args.agoraMs - emDiaEm > args.atrasoMaximoMs) motivos.push(`projeção atrasada: em dia pela última vez há ${Math.round(idade ?? 0)} s`);
  motivos.push(...args.doProcesso);
  return { pronto: motivos.length === 0, motivos, idade_projecao_s: idade };
}
