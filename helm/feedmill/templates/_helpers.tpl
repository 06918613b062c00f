{{/* Chart name, at most 63 characters (a DNS label). */}}
{{- define "feedmill.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The release's full name: the release name when it already contains the chart name
(`helm install feedmill …` → feedmill), else release-chart. Suffixes (-api, -worker) are added
to it, so it stops at 56 characters.
*/}}
{{- define "feedmill.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 56 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 56 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 56 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "feedmill.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "feedmill.selectorLabels" -}}
app.kubernetes.io/name: {{ include "feedmill.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "feedmill.labels" -}}
helm.sh/chart: {{ include "feedmill.chart" . }}
{{ include "feedmill.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: feedmill
{{- end }}

{{/* Labels of one role: (dict "root" $ "role" "api") */}}
{{- define "feedmill.roleSelectorLabels" -}}
{{ include "feedmill.selectorLabels" .root }}
app.kubernetes.io/component: {{ .role }}
{{- end }}

{{- define "feedmill.roleLabels" -}}
{{ include "feedmill.labels" .root }}
app.kubernetes.io/component: {{ .role }}
{{- end }}

{{- define "feedmill.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "feedmill.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "feedmill.image" -}}
{{- $tag := default .Chart.AppVersion .Values.image.tag }}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository $tag }}
{{- end }}
{{- end }}

{{/* True ("true") in the embedded mode: one `all` process on the data directory. */}}
{{- define "feedmill.embedded" -}}
{{- if eq (toString .Values.config.store) "embedded" }}true{{ end }}
{{- end }}

{{/* The env name of a config key: pollMinInterval → FEEDMILL_POLL_MIN_INTERVAL. */}}
{{- define "feedmill.envName" -}}
{{- printf "FEEDMILL_%s" (. | snakecase | upper) }}
{{- end }}

{{/*
A value as an env string. Numbers from values files arrive as float64, which toString would
print as 2.097152e+07; toJson prints 20971520.
*/}}
{{- define "feedmill.envValue" -}}
{{- if kindIs "string" . }}{{ . }}{{ else }}{{ toJson . }}{{ end }}
{{- end }}

{{/* config keys that are secrets: rendered into the Secret, never the ConfigMap. */}}
{{- define "feedmill.secretConfigKeys" -}}
secretKey
{{- end }}

{{/* The TLS Secret mounted at /etc/feedmill/tls, if any. */}}
{{- define "feedmill.tlsSecretName" -}}
{{- if .Values.tls.existingSecret }}
{{- .Values.tls.existingSecret }}
{{- else if .Values.tls.cert }}
{{- printf "%s-tls" (include "feedmill.fullname" .) }}
{{- end }}
{{- end }}

{{/* True when the chart's own Secret holds something (always in the cluster mode: the secret key). */}}
{{- define "feedmill.hasSecret" -}}
{{- if and (not .Values.existingSecret) (or .Values.config.secretKey .Values.redis.password .Values.cassandra.password (not (include "feedmill.embedded" .))) }}true{{ end }}
{{- end }}

{{/*
FEEDMILL_SECRET_KEY of the cluster mode: config.secretKey, else the one this release's Secret
already holds (kept across upgrades), else 32 fresh random bytes. Every pod must share it: it
seals webhook signing secrets in the shared store.

A fresh key is made only when `lookup` can see the cluster. `helm template`, `--dry-run` and
GitOps tools (Argo CD, Flux) render without a cluster, where `lookup` finds nothing: a key made
there would differ on every render, and each sync would replace the Secret, leaving every stored
webhook secret unreadable. The release namespace's `default` ServiceAccount, which Kubernetes
makes in every namespace, tells the two apart: it is visible only with a cluster.
*/}}
{{- define "feedmill.secretKey" -}}
{{- if .Values.config.secretKey }}
{{- .Values.config.secretKey }}
{{- else }}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "feedmill.fullname" .) }}
{{- if and $existing $existing.data (hasKey $existing.data "FEEDMILL_SECRET_KEY") }}
{{- index $existing.data "FEEDMILL_SECRET_KEY" | b64dec }}
{{- else if lookup "v1" "ServiceAccount" .Release.Namespace "default" }}
{{- randBytes 32 }}
{{- else }}
{{- fail (printf "config.secretKey is empty and this render cannot see the cluster (helm template, --dry-run, Argo CD, Flux), so a generated key would change on every render and make stored webhook secrets unreadable. Set existingSecret to a Secret holding FEEDMILL_SECRET_KEY, or config.secretKey to a fixed key (openssl rand -base64 32). (On a first `helm install --create-namespace`, create the namespace %s first.)" .Release.Namespace) }}
{{- end }}
{{- end }}
{{- end }}

{{/* FEEDMILL_REDIS_URL with the password put in after the scheme. */}}
{{- define "feedmill.redisUrlWith" -}}
{{- $parts := regexSplit "://" .url 2 }}
{{- printf "%s://:%s@%s" (index $parts 0) .password (index $parts 1) }}
{{- end }}

{{/*
Settings checks that values.schema.json cannot express (they compare two values); each mirrors a
check of loadConfig in src/main/config.ts, or protects the cluster mode.
*/}}
{{- define "feedmill.validate" -}}
{{- $c := .Values.config }}
{{- if and (ne (toString $c.pollMinInterval) "") (ne (toString $c.pollMaxInterval) "") (gt (int64 $c.pollMinInterval) (int64 $c.pollMaxInterval)) }}
{{- fail (printf "config.pollMinInterval (%v) must be at most config.pollMaxInterval (%v)" $c.pollMinInterval $c.pollMaxInterval) }}
{{- end }}
{{- if ne (empty $c.tlsCert) (empty $c.tlsKey) }}
{{- fail "config.tlsCert and config.tlsKey: set both or neither" }}
{{- end }}
{{- if ne (empty .Values.tls.cert) (empty .Values.tls.key) }}
{{- fail "tls.cert and tls.key: set both or neither" }}
{{- end }}
{{- if eq (toString $c.port) "0" }}
{{- fail "config.port 0 picks a random port that no Service or probe can reach; choose a port" }}
{{- end }}
{{- if .Values.existingSecret }}
{{- if or $c.secretKey .Values.redis.password .Values.cassandra.password }}
{{- fail "existingSecret is set: leave config.secretKey, redis.password and cassandra.password empty (put them in that Secret)" }}
{{- end }}
{{- end }}
{{- if include "feedmill.embedded" . }}
{{- if and (not .Values.persistence.enabled) (not .Values.persistence.existingClaim) }}
{{- fail "config.store: embedded keeps everything in the data directory; set persistence.enabled=true (or persistence.existingClaim) so a restart does not lose it" }}
{{- end }}
{{- else }}
{{- if not .Values.redis.url }}
{{- fail "the cluster mode (config.store: cassandra) needs redis.url (e.g. redis://feedmill-redis-master:6379); or set config.store: embedded for one replica" }}
{{- end }}
{{- if not .Values.cassandra.contactPoints }}
{{- fail "the cluster mode (config.store: cassandra) needs cassandra.contactPoints (e.g. [feedmill-cassandra:9042])" }}
{{- end }}
{{- if and .Values.redis.password .Values.redis.existingSecret }}
{{- fail "redis: set password or existingSecret, not both" }}
{{- end }}
{{- if and .Values.cassandra.password .Values.cassandra.existingSecret }}
{{- fail "cassandra: set password or existingSecret, not both" }}
{{- end }}
{{- end }}
{{- if and .Values.serviceMonitor.enabled (eq (toString $c.metricsPort) "0") }}
{{- fail "serviceMonitor.enabled needs config.metricsPort (0 turns the metrics port off)" }}
{{- end }}
{{- end }}

{{/*
Environment of every feedmill container, after envFrom (ConfigMap, then Secrets): values that
come from Secrets the operator owns (bitnami's redis-password, cassandra-password) and the
extra variables of the role. Call with (dict "root" $ "extra" list).
*/}}
{{- define "feedmill.env" -}}
{{- $v := .root.Values }}
{{- if and (not (include "feedmill.embedded" .root)) $v.redis.existingSecret }}
- name: REDIS_PASSWORD_FROM_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ $v.redis.existingSecret }}
      key: {{ $v.redis.existingSecretPasswordKey }}
# Kubernetes expands $(VAR) from the variables defined above it. Not FEEDMILL_*: feedmill would
# report it as an unknown setting.
- name: FEEDMILL_REDIS_URL
  value: {{ include "feedmill.redisUrlWith" (dict "url" $v.redis.url "password" "$(REDIS_PASSWORD_FROM_SECRET)") | quote }}
{{- end }}
{{- if and (not (include "feedmill.embedded" .root)) $v.cassandra.existingSecret }}
- name: FEEDMILL_CASSANDRA_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $v.cassandra.existingSecret }}
      key: {{ $v.cassandra.existingSecretPasswordKey }}
{{- end }}
{{- with .extra }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* envFrom of every feedmill container. Call with (dict "root" $ "suffix" "" | "-migrate"). */}}
{{- define "feedmill.envFrom" -}}
{{- $name := printf "%s%s" (include "feedmill.fullname" .root) .suffix }}
- configMapRef:
    name: {{ $name }}
{{- if .root.Values.existingSecret }}
- secretRef:
    name: {{ .root.Values.existingSecret }}
{{- else if include "feedmill.hasSecret" .root }}
- secretRef:
    name: {{ $name }}
{{- end }}
{{- end }}

{{/* ConfigMap data: every non-empty, non-secret config value, and the cluster endpoints. */}}
{{- define "feedmill.configData" -}}
{{- $secret := splitList "\n" (include "feedmill.secretConfigKeys" .) }}
{{- range $key, $value := .Values.config }}
{{- if and (not (has $key $secret)) (ne (toString $value) "") }}
{{ include "feedmill.envName" $key }}: {{ include "feedmill.envValue" $value | quote }}
{{- end }}
{{- end }}
{{- /* The mounted certificate, unless config.tlsCert/tlsKey name files of your own. */}}
{{- if and (include "feedmill.tlsSecretName" .) (not .Values.config.tlsCert) }}
FEEDMILL_TLS_CERT: /etc/feedmill/tls/tls.crt
FEEDMILL_TLS_KEY: /etc/feedmill/tls/tls.key
{{- end }}
{{- if not (include "feedmill.embedded" .) }}
FEEDMILL_CASSANDRA_CONTACT_POINTS: {{ join "," .Values.cassandra.contactPoints | quote }}
FEEDMILL_CASSANDRA_LOCAL_DATA_CENTER: {{ .Values.cassandra.localDataCenter | quote }}
FEEDMILL_CASSANDRA_KEYSPACE: {{ .Values.cassandra.keyspace | quote }}
{{- with .Values.cassandra.username }}
FEEDMILL_CASSANDRA_USERNAME: {{ . | quote }}
{{- end }}
{{- if not (or .Values.redis.password .Values.redis.existingSecret) }}
FEEDMILL_REDIS_URL: {{ .Values.redis.url | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* Secret stringData: secret config values and passwords. */}}
{{- define "feedmill.secretData" -}}
{{- if include "feedmill.embedded" . }}
{{- with .Values.config.secretKey }}
FEEDMILL_SECRET_KEY: {{ . | quote }}
{{- end }}
{{- else }}
FEEDMILL_SECRET_KEY: {{ include "feedmill.secretKey" . | quote }}
{{- end }}
{{- if not (include "feedmill.embedded" .) }}
{{- with .Values.redis.password }}
FEEDMILL_REDIS_URL: {{ include "feedmill.redisUrlWith" (dict "url" $.Values.redis.url "password" (urlquery .)) | quote }}
{{- end }}
{{- with .Values.cassandra.password }}
FEEDMILL_CASSANDRA_PASSWORD: {{ . | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* Volumes of every feedmill pod: the data directory, /tmp, the certificate. */}}
{{- define "feedmill.volumes" -}}
- name: data
{{- if and (include "feedmill.embedded" .) (or .Values.persistence.enabled .Values.persistence.existingClaim) }}
  persistentVolumeClaim:
    claimName: {{ default (printf "%s-data" (include "feedmill.fullname" .)) .Values.persistence.existingClaim }}
{{- else }}
  emptyDir: {}
{{- end }}
- name: tmp
  emptyDir: {}
{{- with include "feedmill.tlsSecretName" . }}
- name: tls
  secret:
    secretName: {{ . }}
    defaultMode: 0440
{{- end }}
{{- with .Values.extraVolumes }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "feedmill.volumeMounts" -}}
- name: data
  mountPath: {{ .Values.config.dataDir | default "/data" }}
- name: tmp
  mountPath: /tmp
{{- if include "feedmill.tlsSecretName" . }}
- name: tls
  mountPath: /etc/feedmill/tls
  readOnly: true
{{- end }}
{{- with .Values.extraVolumeMounts }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Pod annotations that roll the pods when their configuration changes. */}}
{{- define "feedmill.checksums" -}}
{{- /* Rendered for its check: a refused generated key fails every render, not only the Secret's. */}}
{{- if include "feedmill.hasSecret" . }}{{ if not (include "feedmill.embedded" .) }}{{ $_ := include "feedmill.secretKey" . }}{{ end }}{{ end }}
checksum/config: {{ include "feedmill.configData" . | sha256sum }}
{{- /* Without the generated key, which differs between renders until the Secret exists. */}}
checksum/secret: {{ list .Values.config.secretKey .Values.redis .Values.cassandra.password .Values.existingSecret | toJson | sha256sum }}
{{- end }}

{{/* topologySpreadConstraints of one role: (dict "root" $ "role" "api") */}}
{{- define "feedmill.topologySpread" -}}
{{- $t := .root.Values.topologySpread }}
{{- range $t.topologyKeys }}
- maxSkew: {{ $t.maxSkew }}
  topologyKey: {{ . }}
  whenUnsatisfiable: {{ $t.whenUnsatisfiable }}
  labelSelector:
    matchLabels:
      {{- include "feedmill.roleSelectorLabels" (dict "root" $.root "role" $.role) | nindent 6 }}
{{- end }}
{{- end }}
