{{- define "exporter.fullname" -}}
{{- .Release.Name | trunc 63 -}}
{{- end -}}

{{- define "exporter.password" -}}
{{- randAlphaNum 16 | quote -}}
{{- end -}}
