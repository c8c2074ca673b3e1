<!-- include start from interface/ipv6-address-no-default-link-local.xml.i -->
<leafNode name="no-default-link-local">
  <properties>
    <help>Remove the default link-local address from the interface</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
