{{- define "legacy.password" -}}
{{- randAlphaNum 16 | quote -}}
{{- end -}}

{{- define "legacy.route" -}}
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: legacy
  labels:
    app: {{ .labelApp }}
#        ^^^^^^^^^^^^^^^ 💡 error[HELM-UNQUOTED-STRING]: metadata.labels.app must be a string, but `{{ .labelApp }}` renders bare: values like `true` or `8080` arrive as a bool or a number and Helm fails with `unable to build kubernetes objects from release manifest`. Add `| quote`.
{{- end -}}
