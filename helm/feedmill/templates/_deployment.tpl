{{/*
One role's Deployment; the roles run the same image, differing in args, ports and probes.
Call with (dict "root" $ "role" "api" | "worker" | "renderer"). The renderer is a worker
(`feedmill worker`) on an image with Chromium that takes the refresh-render queue too
(docs/rendering.md); with it enabled, the plain workers never start a browser.
In the embedded mode the api Deployment runs `all` (API and workers in one process) on the PVC.
*/}}
{{- define "feedmill.deployment" -}}
{{- $root := .root }}
{{- $v := $root.Values }}
{{- $role := .role }}
{{- $r := index $v $role }}
{{- $embedded := include "feedmill.embedded" $root }}
{{- $metricsPort := int64 $v.config.metricsPort }}
{{- $renderer := and (not $embedded) $v.renderer.enabled }}
{{- $image := include "feedmill.image" $root }}
{{- $extraEnv := $r.extraEnv }}
{{- if eq $role "renderer" }}
{{- $image = printf "%s:%s" $r.image.repository (default $root.Chart.AppVersion $r.image.tag) }}
{{- $extraEnv = concat (list (dict "name" "FEEDMILL_RENDER" "value" "on") (dict "name" "FEEDMILL_CHROMIUM_PATH" "value" $r.chromiumPath)) $r.extraEnv }}
{{- else if and (eq $role "worker") $renderer }}
{{- $extraEnv = concat (list (dict "name" "FEEDMILL_RENDER" "value" "off")) $r.extraEnv }}
{{- end }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "feedmill.fullname" $root }}-{{ $role }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "feedmill.roleLabels" (dict "root" $root "role" $role) | nindent 4 }}
spec:
  {{- if $embedded }}
  # The embedded store is one SQLite file on a ReadWriteOnce volume: exactly one process, and the
  # old pod must stop before the new one opens it.
  replicas: 1
  strategy:
    type: Recreate
  {{- else }}
  {{- if not (dig "autoscaling" "enabled" false $r) }}
  replicas: {{ $r.replicas }}
  {{- end }}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 0
      maxSurge: 25%
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "feedmill.roleSelectorLabels" (dict "root" $root "role" $role) | nindent 6 }}
  template:
    metadata:
      annotations:
        {{- include "feedmill.checksums" $root | nindent 8 }}
        {{- with $r.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      labels:
        {{- include "feedmill.roleSelectorLabels" (dict "root" $root "role" $role) | nindent 8 }}
        {{- with $r.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "feedmill.serviceAccountName" $root }}
      automountServiceAccountToken: {{ $v.serviceAccount.automountServiceAccountToken }}
      {{- with $v.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      securityContext:
        {{- toYaml $v.podSecurityContext | nindent 8 }}
      {{- $preStop := 0 }}
      {{- if eq $role "api" }}{{ $preStop = int64 $v.api.preStopSeconds }}{{ end }}
      # serve.ts gives in-flight work FEEDMILL_SHUTDOWN_TIMEOUT after SIGTERM; the kubelet waits a
      # little longer before SIGKILL (the grace period also covers the preStop pause).
      terminationGracePeriodSeconds: {{ add (int64 $v.config.shutdownTimeout) 10 $preStop }}
      {{- if $v.topologySpread.enabled }}
      topologySpreadConstraints:
        {{- include "feedmill.topologySpread" (dict "root" $root "role" $role) | trim | nindent 8 }}
      {{- end }}
      {{- with $r.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $r.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $r.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: feedmill
          image: {{ $image | quote }}
          imagePullPolicy: {{ $v.image.pullPolicy }}
          args: [{{ if $embedded }}all{{ else if eq $role "renderer" }}worker{{ else }}{{ $role }}{{ end }}]
          securityContext:
            {{- toYaml $v.securityContext | nindent 12 }}
          envFrom:
            {{- include "feedmill.envFrom" (dict "root" $root "suffix" "") | trim | nindent 12 }}
          {{- with include "feedmill.env" (dict "root" $root "extra" $extraEnv) | trim }}
          env:
            {{- . | nindent 12 }}
          {{- end }}
          ports:
            {{- if eq $role "api" }}
            - name: https
              containerPort: {{ $v.config.port }}
              protocol: TCP
            {{- end }}
            {{- if gt $metricsPort 0 }}
            - name: metrics
              containerPort: {{ $metricsPort }}
              protocol: TCP
            {{- end }}
          {{- if or (eq $role "api") (gt $metricsPort 0) }}
          {{- $probe := dict "path" "/readyz" "port" "https" "scheme" "HTTPS" }}
          {{- if ne $role "api" }}
          {{- $probe = dict "path" "/readyz" "port" "metrics" "scheme" "HTTP" }}
          {{- end }}
          startupProbe:
            httpGet:
              path: /healthz
              port: {{ $probe.port }}
              scheme: {{ $probe.scheme }}
            {{- toYaml $v.probes.startup | nindent 12 }}
          readinessProbe:
            httpGet:
              path: /readyz
              port: {{ $probe.port }}
              scheme: {{ $probe.scheme }}
            {{- toYaml $v.probes.readiness | nindent 12 }}
          livenessProbe:
            httpGet:
              path: /healthz
              port: {{ $probe.port }}
              scheme: {{ $probe.scheme }}
            {{- toYaml $v.probes.liveness | nindent 12 }}
          {{- end }}
          {{- if gt $preStop 0 }}
          lifecycle:
            # SIGUSR2 to the process (tini, PID 1, forwards it to node): /readyz turns 503, so the
            # endpoints and any load balancer probing it stop sending requests, while the ones
            # already on their way are still served. Then the pause; then the kubelet's SIGTERM.
            preStop:
              exec:
                command: ["/bin/sh", "-c", "kill -USR2 1; sleep {{ $preStop }}"]
          {{- end }}
          resources:
            {{- toYaml $r.resources | nindent 12 }}
          volumeMounts:
            {{- include "feedmill.volumeMounts" $root | nindent 12 }}
        {{- with $r.sidecars }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      volumes:
        {{- include "feedmill.volumes" $root | nindent 8 }}
{{- end }}
