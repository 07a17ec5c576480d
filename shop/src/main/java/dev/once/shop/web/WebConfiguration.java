package dev.once.shop.web;

import java.util.List;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Registers the shop's shared MVC plumbing: the {@link JsonBody} parameter. */
@Configuration(proxyBeanMethods = false)
public class WebConfiguration implements WebMvcConfigurer {
  private final JsonBodyReader reader;

  public WebConfiguration(JsonBodyReader reader) {
    this.reader = reader;
  }

  @Override
  public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
    resolvers.add(new JsonBodyArgumentResolver(reader));
  }
}
