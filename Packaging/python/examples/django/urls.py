from django.http import JsonResponse
from django.urls import include, path


def me(request):
    if not request.user.is_authenticated:
        return JsonResponse({}, status=401)
    account = request.user.socialaccount_set.get(provider="apple")
    return JsonResponse({"sub": account.uid, "email": request.user.email, "first_name": request.user.first_name})


urlpatterns = [path("accounts/", include("allauth.urls")), path("me/", me)]
