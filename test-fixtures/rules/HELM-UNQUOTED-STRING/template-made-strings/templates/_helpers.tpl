{{- define "exporter.fullname" -}}
{{- .Release.Name | trunc 63 -}}
{{- end -}}

{{- define "exporter.password" -}}
{{- randAlphaNum 16 | quote -}}
{{- end -}}

{{- define "exporter.route" -}}
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: {{ .name }}
  labels:
    app: {{ .labelApp }}
{{- end -}}
