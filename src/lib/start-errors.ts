/**
 * Why the service could not start, said so that whoever started it knows what to do next: each class has a
 * stable `code`, and its message is a sentence that ends with the remedy. src/main.ts logs it at the default level.
 */
export class StartError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A port the service needs is taken. Which setting moves it is said where the settings are known (src/lib/start-failure.ts). */
export class PortInUseError extends StartError {
  constructor(readonly port: number) {
    super('port_in_use', `port ${port} is in use by another program`);
  }
}

export class BadSettingError extends StartError {
  constructor(reason: string) {
    super('bad_setting', `a setting is wrong: ${reason}`);
  }
}

/** Another Socialgate that is still running has its embedded PostgreSQL on this data folder. */
export class DataFolderInUseError extends StartError {
  constructor(dataDir: string, ownerPid: string) {
    super(
      'data_folder_in_use',
      `the embedded PostgreSQL in ${dataDir} is in use by another Socialgate that is running (process ${ownerPid}): stop that one first, or give this one a DATA_DIR of its own`,
    );
  }
}
