/** Where each rule's documentation lives; diagnostics link to it. */
export const docsBaseUrl = 'https://github.com/render-lens/render-lens/blob/main/docs/rules/';

export function ruleDocsUrl(ruleId: string): string {
  return `${docsBaseUrl}${ruleId}.md`;
}
