// Request-limit arithmetic: sliding-window log decisions and the per-process limiter.
export * from './janela-deslizante.ts';
export * from './limitador-em-memoria.ts';
