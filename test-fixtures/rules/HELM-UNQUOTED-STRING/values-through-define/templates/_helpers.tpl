{{- define "queue.nested" -}}
metadata:
  # Includes itself with its own field: that call adds nothing, and no other caller passes
  # a value, so nothing is judged. Checked first: the define after it still is.
  name: {{ .name }}
{{ include "queue.nested" (dict "name" .name) }}
{{- end -}}

{{- define "queue.meta" -}}
metadata:
  # Judged where the chart includes it: the caller passes `.Values.prefix`.
  name: {{ .name }}
#       ^^^^^^^^^^^ 💡 error[HELM-UNQUOTED-STRING]: metadata.name must be a string, but `.Values.prefix` is `2024` (values.yaml:2), and `{{ .name }}` prints it bare: YAML reads `2024` as a number, and the API server rejects the object. Add `| quote`.
{{- end -}}
