/**
 * What the client and the server agree on: settings and command names. The client imports
 * this file only; it holds no logic.
 */
export type SeverityLevel = 'error' | 'warning' | 'information' | 'hint' | 'off';

/** The `renderLens.*` settings as the server reads them. */
export interface RenderLensSettings {
  enable: boolean;
  /** Rule id → severity, or 'off'. Wins over `.render-lens.yaml`. */
  severity: Record<string, SeverityLevel>;
  /** Strict substitution for clusters whose Flux version the repository does not show. */
  assumeStrict: boolean;
  /** Globs of workspace files not to check. */
  exclude: string[];
}

export const defaultSettings: RenderLensSettings = { enable: true, severity: {}, assumeStrict: true, exclude: [] };

/** Checks every file of every workspace folder and publishes the diagnostics. */
export const checkWorkspaceCommand = 'renderLens.server.checkWorkspace';

export interface CheckWorkspaceResult {
  files: number;
  findings: number;
  errors: number;
}
