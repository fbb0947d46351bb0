/** Only same-site paths are followed after sign-in. */
export function safeCallback(value: string | null): string {
  return value?.startsWith('/') && !value.startsWith('//') ? value : '/';
}
