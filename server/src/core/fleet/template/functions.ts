/**
 * The functions a Fleet values template can call: Go's text/template builtins plus sprig's
 * TxtFuncMap (sprig v3), minus what Fleet deletes before parsing (tplFuncMap in
 * rancher/fleet internal/cmd/controller/target/builder.go). `include` and `tpl` are Helm's,
 * not sprig's; Fleet lists them so a chart author's habit fails loudly.
 */

const builtins = ['and', 'call', 'html', 'index', 'slice', 'js', 'len', 'not', 'or', 'print', 'printf', 'println', 'urlquery', 'eq', 'ge', 'gt', 'le', 'lt', 'ne'];

const sprig = `hello ago date date_in_zone date_modify dateInZone dateModify duration durationRound htmlDate
htmlDateInZone must_date_modify mustDateModify mustToDate now toDate unixEpoch abbrev abbrevboth trunc trim upper
lower title untitle substr repeat trimall trimAll trimSuffix trimPrefix nospace initials randAlphaNum randAlpha
randAscii randNumeric randSeededNumeric swapcase shuffle snakecase camelcase kebabcase wrap wrapWith contains hasPrefix hasSuffix
quote squote cat indent nindent replace plural sha1sum sha256sum sha512sum adler32sum toString atoi int64 int float64
seq toDecimal split splitList splitn toStrings until untilStep add1 add sub div mod mul randInt add1f addf subf divf
mulf biggest max min maxf minf ceil floor round join sortAlpha default empty coalesce all any compact mustCompact
fromJson toJson toPrettyJson toRawJson mustFromJson mustToJson mustToPrettyJson mustToRawJson ternary deepCopy
mustDeepCopy typeOf typeIs typeIsLike kindOf kindIs deepEqual env expandenv getHostByName base dir clean ext isAbs
osBase osClean osDir osExt osIsAbs b64enc b64dec b32enc b32dec tuple list dict get set unset hasKey pluck keys pick
omit merge mergeOverwrite mustMerge mustMergeOverwrite values append push mustAppend mustPush prepend mustPrepend
first mustFirst rest mustRest last mustLast initial mustInitial reverse mustReverse uniq mustUniq without
mustWithout has mustHas mustSlice concat dig chunk mustChunk bcrypt htpasswd genPrivateKey derivePassword
buildCustomCert genCA genCAWithKey genSelfSignedCert genSelfSignedCertWithKey genSignedCert genSignedCertWithKey
encryptAES decryptAES randBytes uuidv4 semver semverCompare fail regexMatch mustRegexMatch regexFindAll
mustRegexFindAll regexFind mustRegexFind regexReplaceAll mustRegexReplaceAll regexReplaceAllLiteral
mustRegexReplaceAllLiteral regexSplit mustRegexSplit regexQuoteMeta urlParse urlJoin`.split(/\s+/);

/** Removed by Fleet: they read the controller's environment or network, or are Helm's own. */
export const removedFunctions = ['env', 'expandenv', 'include', 'tpl', 'getHostByName'] as const;

const available = new Set([...builtins, ...sprig].filter((name) => !(removedFunctions as readonly string[]).includes(name)));

export function isTemplateFunction(name: string): boolean {
  return available.has(name);
}

export function isRemovedFunction(name: string): boolean {
  return (removedFunctions as readonly string[]).includes(name);
}

/** Helm's own template functions, which people carry over from chart templates. */
const helmOnly = new Set(['toYaml', 'fromYaml', 'fromYamlArray', 'toToml', 'fromJsonArray', 'required', 'lookup']);

export function isHelmOnlyFunction(name: string): boolean {
  return helmOnly.has(name);
}
