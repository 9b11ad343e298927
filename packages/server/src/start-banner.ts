import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import { databaseLabel, databaseUrlForCommand, isDefaultDatabase, shellWord } from './database-label.js';

type BannerConfig = Pick<Config, 'host' | 'databaseUrl' | 'llm' | 'embeddings'>;

/** Where everything is (design §16), as the start banner says it. */
export interface StartInfo {
  api: string;
  explorer: string;
  docs: string;
  database: string;
  extractor: string;
  embeddings: string;
  /** The command that makes the first key for this server; undefined once a key exists. */
  createKey: string | undefined;
}

const hostOf = (baseUrl: string) => {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
};

export function startInfo(config: BannerConfig, port: number, activeKeys: number, cwd = process.cwd()): StartInfo {
  const base = baseUrl(config.host, port);
  const env = isDefaultDatabase(config.databaseUrl, cwd)
    ? ''
    : `DATABASE_URL=${shellWord(databaseUrlForCommand(config.databaseUrl, cwd))} `;
  return {
    api: `${base}/v1`,
    explorer: `${base}/`,
    docs: `${base}/v1/docs`,
    database: databaseLabel(config.databaseUrl),
    extractor: config.llm ? `LLM ${config.llm.model} at ${hostOf(config.llm.baseUrl)}` : 'built-in (no LLM configured)',
    embeddings: config.embeddings
      ? `${config.embeddings.model} at ${hostOf(config.embeddings.baseUrl)}`
      : 'off (search is text + graph)',
    createKey: activeKeys === 0 ? `${env}npx snapgraph keys create` : undefined,
  };
}

/** The banner as a person reads it on a terminal. */
export function bannerText(info: StartInfo): string {
  const lines = [
    '',
    `Snapgraph is running.`,
    `  API:         ${info.api}`,
    `  Explorer:    ${info.explorer}  (open it in a browser to explore your brains)`,
    `  API docs:    ${info.docs}`,
    `  Database:    ${info.database}`,
    `  Extractor:   ${info.extractor}`,
    `  Embeddings:  ${info.embeddings}`,
    '',
  ];
  if (info.createKey !== undefined) {
    lines.push('No API key exists yet. Create one for this server (it is shown once) with:', `  ${info.createKey}`, '');
  }
  return lines.join('\n');
}

/**
 * Says where everything is, on the terminal (standard error) and in the log. When the log is
 * itself written to that terminal, the "no API key" advice is said once, by the banner.
 */
export function printStartBanner(info: StartInfo, log: FastifyBaseLogger, logIsTerminal: boolean): void {
  process.stderr.write(`${bannerText(info)}\n`);
  const { createKey, ...where } = info;
  log.info(where, `snapgraph started: API ${info.api}, docs ${info.docs}, database ${info.database}`);
  if (createKey !== undefined && !logIsTerminal) {
    log.warn({ command: createKey }, `no API key exists yet; create one with: ${createKey}`);
  }
}

/** The server's address as a person types it: a wildcard host means this machine. */
function baseUrl(configuredHost: string, port: number): string {
  const host = ['0.0.0.0', '::', ''].includes(configuredHost) ? '127.0.0.1' : configuredHost;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
