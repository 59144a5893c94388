/**
 * The function tables of the products that run Go templates. text/template fails to parse a
 * template that calls a function its table lacks (`function "x" not defined`), so which table
 * applies decides whether a template parses at all.
 */

/** text/template's builtins (text/template/funcs.go). */
export const goBuiltins = ['and', 'call', 'html', 'index', 'slice', 'js', 'len', 'not', 'or', 'print', 'printf', 'println', 'urlquery', 'eq', 'ge', 'gt', 'le', 'lt', 'ne'];

/** sprig v3's TxtFuncMap. */
export const sprigFunctions = `hello ago date date_in_zone date_modify dateInZone dateModify duration durationRound htmlDate
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

/** Helm's own functions (pkg/engine/funcs.go), added to sprig's. */
export const helmFunctions = ['toToml', 'fromToml', 'toYaml', 'toYamlPretty', 'fromYaml', 'fromYamlArray', 'toJson', 'fromJson', 'fromJsonArray', 'include', 'tpl', 'required', 'lookup'];

/** Taken out of sprig by Helm: they read the environment of whoever renders. */
export const helmRemovedFunctions = ['env', 'expandenv'];

/**
 * Taken out of sprig by Fleet before it parses a values template (tplFuncMap in rancher/fleet
 * internal/cmd/controller/target/builder.go): they read the controller's environment or
 * network, or are Helm's own and listed so that a chart author's habit fails loudly.
 */
export const fleetRemovedFunctions = ['env', 'expandenv', 'include', 'tpl', 'getHostByName'] as const;
