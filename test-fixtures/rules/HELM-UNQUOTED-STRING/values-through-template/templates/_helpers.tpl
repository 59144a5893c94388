{{- define "legacy.password" -}}
{{- randAlphaNum 16 | quote -}}
{{- end -}}
