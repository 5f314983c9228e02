import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError, EXIT, notFound } from './errors';

/** The project directory: the current one (`--dir` of some commands overrides it). */
export const projectDir = (dir?: string) => resolve(dir ?? process.cwd());

export function readProjectFile<T>(name: string, dir?: string): T | undefined {
  const path = join(projectDir(dir), name);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (err) {
    throw new CliError(`${name} is not valid JSON: ${(err as Error).message}`, EXIT.usage, 'bad_project_file');
  }
}

/** Project files hold no secret: only what the server's record holds (the tool checks that before writing). */
export function writeProjectFile(name: string, value: unknown, dir?: string) {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (/(whsec|bcs|bpt|bat|brt|cvs)_[A-Za-z0-9_-]{16,}/.test(text))
    throw new CliError(`Refusing to write a secret into ${name}`, EXIT.failure, 'secret_in_file');
  writeFileSync(join(projectDir(dir), name), text);
}

export function requireProjectFile<T>(name: string, hint: string, dir?: string): T {
  const v = readProjectFile<T>(name, dir);
  if (v === undefined) throw notFound(`No ${name} in ${projectDir(dir)}`, hint);
  return v;
}
