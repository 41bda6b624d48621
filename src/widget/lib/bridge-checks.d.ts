/** The host bridge's checks, generated from the contract when the widget is built (bridge-checks.build.ts). */
declare module 'virtual:bridge-check/*' {
  export function Check(value: unknown): boolean;
}
