from django.db import models


class Category(models.Model):
    name = models.CharField(max_length=50, unique=True)
    description = models.TextField(blank=True, default="")

    def __str__(self):
        return self.name


class Product(models.Model):
    category = models.ForeignKey(Category, on_delete=models.CASCADE, related_name="products")
    name = models.CharField(max_length=100, db_index=True)
    price = models.DecimalField(max_digits=10, decimal_places=2)
    in_stock = models.BooleanField(default=True)
    added = models.DateTimeField(auto_now_add=True)
    released = models.DateField(null=True, blank=True)
    attributes = models.JSONField(default=dict)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name
