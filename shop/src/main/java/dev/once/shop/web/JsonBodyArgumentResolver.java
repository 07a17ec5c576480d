package dev.once.shop.web;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/** Supplies a {@link JsonBody} handler parameter, read by {@link JsonBodyReader}. */
final class JsonBodyArgumentResolver implements HandlerMethodArgumentResolver {
  private final JsonBodyReader reader;

  JsonBodyArgumentResolver(JsonBodyReader reader) {
    this.reader = reader;
  }

  @Override
  public boolean supportsParameter(MethodParameter parameter) {
    return parameter.getParameterType() == JsonBody.class;
  }

  @Override
  public JsonBody resolveArgument(
      MethodParameter parameter,
      ModelAndViewContainer mavContainer,
      NativeWebRequest webRequest,
      WebDataBinderFactory binderFactory) {
    return reader.read(webRequest.getNativeRequest(HttpServletRequest.class));
  }
}
