/**
 * Settings: pulled from the client at start and whenever they change, applied without a
 * restart. Clients without `workspace/configuration` get the defaults.
 */
import { DidChangeConfigurationNotification, type Connection } from 'vscode-languageserver/node';
import type { EngineSettings } from '../core';
import { defaultSettings, type RenderLensSettings } from '../protocol';
import type { Logger } from './logger';

export function toEngineSettings(settings: RenderLensSettings, log: Logger): EngineSettings {
  return { severities: { ...(settings.severity ?? {}) }, strictDefault: settings.assumeStrict, exclude: settings.exclude ?? [], helmValuesFiles: settings.helmValuesFiles ?? [], log: (message) => log.error(message) };
}

export function watchSettings(connection: Connection, supported: () => boolean, apply: (settings: RenderLensSettings) => void, log: Logger): void {
  const pull = async () => {
    if (!supported()) return apply(defaultSettings);
    try {
      const value = (await connection.workspace.getConfiguration('renderLens')) as (Partial<RenderLensSettings> & { helm?: { valuesFiles?: string[] } }) | null;
      // `renderLens.helm.valuesFiles` arrives nested under `helm`.
      apply({ ...defaultSettings, ...(value ?? {}), helmValuesFiles: value?.helm?.valuesFiles ?? value?.helmValuesFiles ?? [] });
    } catch (error) {
      log.error(`could not read settings: ${(error as Error).message}`);
    }
  };
  connection.onInitialized(() => {
    if (supported()) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'renderLens' });
    void pull();
  });
  connection.onDidChangeConfiguration(() => void pull());
}
