# syntax=docker/dockerfile:1
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

# Dependencies first, in their own cached layer: only pyproject.toml changes rebuild it.
COPY pyproject.toml README.md ./
RUN mkdir -p bot services repositories prompts seeds bench sommelier \
    && for p in bot services repositories prompts seeds bench sommelier; do touch $p/__init__.py; done \
    && pip install . \
    && pip uninstall -y sommelier \
    && rm -rf bot services repositories prompts seeds bench sommelier

COPY . .
RUN pip install --no-deps -e . \
    && useradd --create-home --uid 10001 sommelier \
    && chown -R sommelier /app
USER sommelier

# Migrations first, then the bot (polling, or webhook on HTTP_PORT when WEBHOOK_URL is set).
EXPOSE 8080
CMD ["sh", "-c", "sommelier migrate && sommelier bot"]
