"""/api/schema/, served from bytes rendered once per process (SchemaView).

Apart from config.schema, which DRF imports while drf-spectacular's views are still being
imported (its DEFAULT_SCHEMA_CLASS): a view of theirs imported there is a circular import.
"""

from django.http import HttpResponse
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView

#: The schema as each renderer wrote it, once per process (SchemaView): it changes only
#: with the code, which a deploy restarts.
_RENDERED: dict[type, bytes] = {}


class SchemaView(SpectacularAPIView):
    """/api/schema/: the API's one version, in English, rendered once per process and
    format (YAML, JSON) and served as those bytes ever after.

    drf-spectacular's own view built the schema again on every request (a tenth to a
    quarter of a second of a core, 250 KB), for anyone, 600 times a minute per address
    (THROTTLE_ANON): one caller kept both cores busy. And it wrote `?version=` (any text)
    into the schema and into its Content-Disposition header, where a line break was a
    500 and a quote broke the file name; `?lang=` switched the language the schema's
    words were looked up in. There is one version, and one language: both are ignored
    (tests/test_attack2_caches.py)."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT})  # as drf-spectacular's, no ?lang=
    def get(self, request, *args, **kwargs):
        renderer = request.accepted_renderer
        body = _RENDERED.get(type(renderer))
        if body is None:
            generator = self.generator_class(urlconf=self.urlconf, patterns=self.patterns)
            schema = generator.get_schema(request=None, public=self.serve_public)
            body = renderer.render(schema, renderer.media_type, {})
            body = _RENDERED.setdefault(type(renderer), body)
        charset = f"; charset={renderer.charset}" if renderer.charset else ""
        response = HttpResponse(body, content_type=renderer.media_type + charset)
        name = spectacular_settings.TITLE or "schema"
        response["Content-Disposition"] = f'inline; filename="{name}.{renderer.format}"'
        return response
