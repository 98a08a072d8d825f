import type { Config } from '../config.js';
import { PortInUseError, StartError } from './start-errors.js';

export interface StartFailure {
  code: string;
  /** One sentence: what went wrong, then what to do. */
  message: string;
  /** Not one of the failures foreseen here: its stack trace is worth logging. */
  unforeseen: boolean;
}

type SystemError = NodeJS.ErrnoException & { port?: number; address?: string };

/** The settings that name each port the service opens; several may name the same one by mistake. */
function settingsNaming(port: number, config: Config | undefined): string {
  if (!config) return 'the setting that names it';
  const named = [
    ['PORT', config.port],
    ['SANDBOX_PORT', config.sandbox.port],
    ['EMBEDDED_PG_PORT', config.embeddedPostgresPort],
  ].flatMap(([name, value]) => (value === port ? [name] : []));
  return named.length > 0 ? named.join(' or ') : 'the setting that names it';
}

function foreseen(code: string, message: string): StartFailure {
  return { code, message, unforeseen: false };
}

/** Says why the service could not start, in words, for the failures a person starting it can do something about. */
export function describeStartFailure(error: unknown, config: Config | undefined): StartFailure {
  if (error instanceof PortInUseError || (error as SystemError)?.code === 'EADDRINUSE') {
    const port = (error as { port: number }).port;
    return foreseen(
      'port_in_use',
      `port ${port} is in use by another program (another Socialgate?): stop it, or set ${settingsNaming(port, config)} to a free port`,
    );
  }
  if (error instanceof StartError) return foreseen(error.code, error.message);
  const system = error as SystemError;
  if (system?.syscall === 'listen' && system.code === 'EACCES') {
    return foreseen(
      'port_not_permitted',
      `port ${system.port} is open to privileged users only: set ${settingsNaming(system.port ?? 0, config)} to a port above 1023`,
    );
  }
  if (system?.syscall === 'listen' && system.code === 'EADDRNOTAVAIL') {
    return foreseen(
      'address_not_available',
      `${system.address} is not an address of this machine: set HOST to one of its addresses (0.0.0.0 for all)`,
    );
  }
  if (system?.path && ['EACCES', 'EPERM', 'EROFS'].includes(system.code ?? '')) {
    return foreseen(
      'folder_not_permitted',
      `this user may not use ${system.path} (${system.code}): give it that folder, or set DATA_DIR to a folder of its own`,
    );
  }
  return { code: 'unforeseen', message: error instanceof Error ? error.message : String(error), unforeseen: true };
}
